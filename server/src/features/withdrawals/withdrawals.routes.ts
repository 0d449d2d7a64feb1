import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import type { AccountValidations } from '../payout-accounts';
import { createUnclaimedAdmin, type UnclaimedAdmin } from './unclaimed.admin';
import { createWithdrawalsAdmin, type PayoutDispatcher, type WithdrawalsAdmin } from './withdrawals.admin';
import { createWithdrawalsService, type WithdrawalsService } from './withdrawals.service';

function withdrawalsHandlers(
  withdrawals: WithdrawalsService,
  admin: WithdrawalsAdmin,
  unclaimed: UnclaimedAdmin,
): Handlers {
  return {
    withdrawAdd: (ctx) => withdrawals.add(ctx.user.id, ctx.body, ctx.headers['idempotency-key']),
    withdrawList: (ctx) => withdrawals.list(ctx.user.id, ctx.query, ctx.locale),
    withdrawCancel: (ctx) => withdrawals.cancel(ctx.user.id, ctx.body.id),
    withdrawLimits: (ctx) => withdrawals.limits(ctx.user.id),
    adminWithdrawList: (ctx) => admin.list(ctx.query, ctx.actor.id),
    adminWithdrawReview: (ctx) => admin.review(ctx.actor, ctx.body),
    adminUnclaimedList: (ctx) => unclaimed.list(ctx.query),
    adminUnclaimedHandle: (ctx) => unclaimed.handle(ctx.actor, ctx.body),
  };
}

/** `payouts`: what approval hands a withdrawal to (the payouts feature). */
export function register(
  app: FastifyInstance,
  deps: FeatureDeps & { payouts: PayoutDispatcher; validations: AccountValidations },
) {
  registerRoutes(
    app,
    withdrawalsHandlers(createWithdrawalsService(deps), createWithdrawalsAdmin(deps), createUnclaimedAdmin(deps)),
  );
}
