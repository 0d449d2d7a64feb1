import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes, sessionRead } from '../../platform/routes';
import { createTasksService, type TasksService } from './tasks.service';

function tasksHandlers(tasks: TasksService): Handlers {
  const actor = (ctx: Parameters<typeof caller>[0] & { requestId: string }) => ({
    id: caller(ctx).id,
    requestId: ctx.requestId,
  });
  return {
    taskList: sessionRead((ctx) => tasks.list(ctx.sessionHash, ctx.locale)),
    taskFinish: (ctx) => tasks.finish(caller(ctx).id, ctx.body.taskId),
    taskProofSubmit: (ctx) => tasks.submitProof(caller(ctx).id, ctx.body),
    adminTaskProofList: (ctx) => tasks.adminProofList(ctx.query),
    adminTaskProofReview: (ctx) => tasks.adminProofReview(actor(ctx), ctx.body),
    adminTaskAdd: (ctx) => tasks.adminAdd(actor(ctx), ctx.body),
    adminTaskEdit: (ctx) => tasks.adminEdit(actor(ctx), ctx.body),
    adminTaskDelete: (ctx) => tasks.adminDelete(actor(ctx), ctx.body.id),
    adminTaskDetail: (ctx) => tasks.adminDetail(ctx.query.id),
    adminTaskList: () => tasks.adminList(),
  };
}

export function register(
  app: FastifyInstance,
  { db, now, uploads }: FeatureDeps & { uploads: { exists(url: string): Promise<boolean> } },
) {
  registerRoutes(app, tasksHandlers(createTasksService({ db, now, uploads })));
}
