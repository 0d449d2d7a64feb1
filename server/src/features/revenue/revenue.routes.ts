import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createRevenueService, type RevenueService } from './revenue.service';

function revenueHandlers(revenue: RevenueService): Handlers {
  return {
    adminRevenueAdd: (ctx) => revenue.add({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
    adminBalanceList: (ctx) => revenue.balanceList(ctx.query),
    adminCreditRequestList: (ctx) => revenue.requestList(ctx.query),
    adminCreditReview: (ctx) => revenue.review({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, revenueHandlers(createRevenueService({ db, now })));
}
