import { caller, type Handlers } from '../../platform/routes';
import type { RevenueService } from './revenue.service';

export function revenueHandlers(revenue: RevenueService): Handlers {
  return {
    adminRevenueAdd: (ctx) => revenue.add({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
    adminBalanceList: (ctx) => revenue.balanceList(ctx.query),
    adminCreditRequestList: (ctx) => revenue.requestList(ctx.query),
    adminCreditReview: (ctx) => revenue.review({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}
