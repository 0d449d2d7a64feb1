import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createWithdrawalsService, type PayoutDispatcher, type WithdrawalsService } from './withdrawals.service';

function withdrawalsHandlers(withdrawals: WithdrawalsService): Handlers {
  const actor = (ctx: Parameters<typeof caller>[0] & { requestId: string }) => ({
    id: caller(ctx).id,
    requestId: ctx.requestId,
  });
  return {
    withdrawAdd: (ctx) => withdrawals.add(caller(ctx).id, ctx.body, ctx.headers['idempotency-key']),
    withdrawList: (ctx) => withdrawals.list(caller(ctx).id, ctx.query),
    withdrawCancel: (ctx) => withdrawals.cancel(caller(ctx).id, ctx.body.id),
    withdrawLimits: (ctx) => withdrawals.limits(caller(ctx).id),
    adminWithdrawList: (ctx) => withdrawals.adminList(ctx.query),
    adminWithdrawReview: (ctx) => withdrawals.review(actor(ctx), ctx.body),
    adminSettingsGet: () => withdrawals.settingsGet(),
    adminSettingsSet: (ctx) => withdrawals.settingsSet(actor(ctx), ctx.body),
  };
}

/** `payouts`: what approval hands a withdrawal to (the payouts feature). */
export function register(app: FastifyInstance, deps: FeatureDeps & { payouts: PayoutDispatcher }) {
  registerRoutes(app, withdrawalsHandlers(createWithdrawalsService(deps)));
}
