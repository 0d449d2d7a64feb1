import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createRevenueAdmin, type RevenueAdmin } from './revenue.admin';

function revenueHandlers(revenue: RevenueAdmin): Handlers {
  return {
    adminRevenueAdd: (ctx) => revenue.add(ctx.actor, ctx.body),
    adminBalanceList: (ctx) => revenue.balanceList(ctx.query),
    adminCreditRequestList: (ctx) => revenue.requestList(ctx.query),
    adminCreditReview: (ctx) => revenue.review(ctx.actor, ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, revenueHandlers(createRevenueAdmin({ db, now })));
}
