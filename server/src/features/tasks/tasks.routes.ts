import { caller, type Handlers, sessionRead } from '../../platform/routes';
import type { TasksService } from './tasks.service';

export function tasksHandlers(tasks: TasksService): Handlers {
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
