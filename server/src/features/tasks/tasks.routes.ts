import type { FastifyInstance } from 'fastify';
import { keyedCalls } from '../../platform/idempotency';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { sessionRead } from '../../platform/session-read';
import { createTasksAdmin, type TasksAdmin } from './tasks.admin';
import type { ProofFiles } from './tasks.service';
import { createTasksService, type TasksService } from './tasks.service';

function tasksHandlers(
  tasks: TasksService,
  admin: TasksAdmin,
  { db, now, replica, signUrl }: Pick<FeatureDeps, 'db' | 'now' | 'replica'> & { signUrl: (url: string) => string },
): Handlers {
  // With an Idempotency-Key a retried review answers as the first did (platform/idempotency.ts).
  const once = keyedCalls(db, (tx) => createTasksAdmin({ db: tx, now, signUrl }));
  return {
    taskList: sessionRead((ctx) => tasks.list(ctx.sessionHash, ctx.locale)),
    taskFinish: (ctx) => tasks.finish(ctx.user.id, ctx.body.taskId),
    taskProofSubmit: (ctx) => tasks.submitProof(ctx.user.id, ctx.body),
    // On a caught-up replica: a review of a proof the list showed stale is refused with its state.
    adminTaskProofList: (ctx) => replica.read(ctx.actor.id, (from) => admin.proofList(ctx.query, from)),
    adminTaskProofReview: (ctx) => once(ctx, 'admin.task.proof.review', (a) => a.proofReview(ctx.actor, ctx.body)),
    adminTaskRewardReverse: (ctx) => admin.rewardReverse(ctx.actor, ctx.body),
    adminTaskAdd: (ctx) => admin.add(ctx.actor, ctx.body),
    adminTaskEdit: (ctx) => admin.edit(ctx.actor, ctx.body),
    adminTaskDelete: (ctx) => admin.remove(ctx.actor, ctx.body.id),
    adminTaskDetail: (ctx) => admin.detail(ctx.query.id),
    adminTaskList: () => admin.list(),
  };
}

export function register(app: FastifyInstance, { db, now, replica, uploads }: FeatureDeps & { uploads: ProofFiles }) {
  registerRoutes(
    app,
    tasksHandlers(createTasksService({ db, now, uploads }), createTasksAdmin({ db, now, signUrl: uploads.signUrl }), {
      db,
      now,
      replica,
      signUrl: uploads.signUrl,
    }),
  );
}
