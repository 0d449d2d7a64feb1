import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createNoticesAdmin, type NoticesAdmin } from './notices.admin';
import { createNoticesService, type NoticesService } from './notices.service';

function noticesHandlers(notices: NoticesService, admin: NoticesAdmin): Handlers {
  return {
    noticeList: (ctx) => notices.list(ctx.user.id, ctx.query, ctx.locale),
    noticeDetail: (ctx) => notices.detail(ctx.user.id, ctx.query.id, ctx.query.kind, ctx.locale),
    noticeUnread: (ctx) => notices.unread(ctx.user.id),
    noticeSeen: (ctx) => notices.seen(ctx.user.id, ctx.body),
    adminNoticeAdd: (ctx) => admin.add(ctx.actor, ctx.body),
    adminNoticeEdit: (ctx) => admin.edit(ctx.actor, ctx.body),
    adminNoticeDelete: (ctx) => admin.remove(ctx.actor, ctx.body.id),
    adminNoticeDetail: (ctx) => admin.detail(ctx.query.id),
    adminNoticeList: (ctx) => admin.list(ctx.query, ctx.actor.id),
  };
}

export function register(app: FastifyInstance, { db, replica, now }: FeatureDeps) {
  registerRoutes(
    app,
    noticesHandlers(createNoticesService({ db, replica, now }), createNoticesAdmin({ db, replica, now })),
  );
}
