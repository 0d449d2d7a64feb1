import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, registerRoutes } from '../../platform/routes';
import { createComplaintsAdmin } from './complaints.admin';
import { createComplaintsService } from './complaints.service';

export function register(app: FastifyInstance, { db, replica, now }: FeatureDeps) {
  const complaints = createComplaintsService({ db, now });
  const admin = createComplaintsAdmin({ db, replica, now });
  registerRoutes(app, {
    complaintAdd: (ctx) => complaints.raise(ctx.user.id, ctx.body, ctx.locale),
    complaintList: (ctx) => complaints.list(ctx.user.id, ctx.query),
    complaintDetail: (ctx) => complaints.detail(ctx.user.id, ctx.query.id),
    adminComplaintList: (ctx) => admin.list(ctx.query, ctx.actor.id),
    adminComplaintSummary: () => admin.summary(),
    adminComplaintAcknowledge: (ctx) => admin.acknowledge(ctx.actor, ctx.body),
    adminComplaintReply: (ctx) => admin.reply(ctx.actor, ctx.body),
    adminComplaintClose: (ctx) => admin.close(ctx.actor, ctx.body),
  });
}
