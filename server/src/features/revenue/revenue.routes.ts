import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createRevenueService, type RevenueService } from './revenue.service';

function revenueHandlers(revenue: RevenueService): Handlers {
  return {
    adminRevenueAdd: (ctx) => revenue.add({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
    adminBalanceList: (ctx) => revenue.balanceList(ctx.query),
  };
}

export function register(app: FastifyInstance, { db }: FeatureDeps) {
  registerRoutes(app, revenueHandlers(createRevenueService({ db })));
}
