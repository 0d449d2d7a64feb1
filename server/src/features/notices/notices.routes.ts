import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createNoticesAdminService, type NoticesAdminService } from './notices.admin';
import { createNoticesService, type NoticesService } from './notices.service';

function noticesHandlers(notices: NoticesService, admin: NoticesAdminService): Handlers {
  const actor = (ctx: Parameters<typeof caller>[0] & { requestId: string }) => ({
    id: caller(ctx).id,
    requestId: ctx.requestId,
  });
  return {
    noticeList: (ctx) => notices.list(caller(ctx).id, ctx.query, ctx.locale),
    noticeDetail: (ctx) => notices.detail(caller(ctx).id, ctx.query.id, ctx.query.kind, ctx.locale),
    noticeUnread: (ctx) => notices.unread(caller(ctx).id),
    adminNoticeAdd: (ctx) => admin.add(actor(ctx), ctx.body),
    adminNoticeEdit: (ctx) => admin.edit(actor(ctx), ctx.body),
    adminNoticeDelete: (ctx) => admin.remove(actor(ctx), ctx.body.id),
    adminNoticeDetail: (ctx) => admin.detail(ctx.query.id),
    adminNoticeList: (ctx) => admin.list(ctx.query),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, noticesHandlers(createNoticesService({ db, now }), createNoticesAdminService({ db, now })));
}
