import type { FastifyInstance } from 'fastify';
import { keyedCalls } from '../../platform/idempotency';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createRevenueAdmin, type RevenueAdmin } from './revenue.admin';

function revenueHandlers(revenue: RevenueAdmin, { db, now }: Pick<FeatureDeps, 'db' | 'now'>): Handlers {
  // With an Idempotency-Key a retried credit or decision answers as the first did (platform/idempotency.ts).
  const once = keyedCalls(db, (tx) => createRevenueAdmin({ db: tx, now }));
  return {
    adminRevenueAdd: (ctx) => once(ctx, 'admin.revenue.add', (admin) => admin.add(ctx.actor, ctx.body)),
    adminBalanceList: (ctx) => revenue.balanceList(ctx.query),
    adminCreditRequestList: (ctx) => revenue.requestList(ctx.query),
    adminCreditReview: (ctx) => once(ctx, 'admin.revenue.review', (admin) => admin.review(ctx.actor, ctx.body)),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, revenueHandlers(createRevenueAdmin({ db, now }), { db, now }));
}
