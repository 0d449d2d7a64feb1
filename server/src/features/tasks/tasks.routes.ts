import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes, sessionRead } from '../../platform/routes';
import { createTasksAdmin, type TasksAdmin } from './tasks.admin';
import { createTasksService, type TasksService } from './tasks.service';

function tasksHandlers(tasks: TasksService, admin: TasksAdmin): Handlers {
  return {
    taskList: sessionRead((ctx) => tasks.list(ctx.sessionHash, ctx.locale)),
    taskFinish: (ctx) => tasks.finish(ctx.user.id, ctx.body.taskId),
    taskProofSubmit: (ctx) => tasks.submitProof(ctx.user.id, ctx.body),
    adminTaskProofList: (ctx) => admin.proofList(ctx.query),
    adminTaskProofReview: (ctx) => admin.proofReview(ctx.actor, ctx.body),
    adminTaskAdd: (ctx) => admin.add(ctx.actor, ctx.body),
    adminTaskEdit: (ctx) => admin.edit(ctx.actor, ctx.body),
    adminTaskDelete: (ctx) => admin.remove(ctx.actor, ctx.body.id),
    adminTaskDetail: (ctx) => admin.detail(ctx.query.id),
    adminTaskList: () => admin.list(),
  };
}

export function register(
  app: FastifyInstance,
  { db, now, uploads }: FeatureDeps & { uploads: { exists(url: string): Promise<boolean> } },
) {
  registerRoutes(app, tasksHandlers(createTasksService({ db, now, uploads }), createTasksAdmin({ db, now })));
}
