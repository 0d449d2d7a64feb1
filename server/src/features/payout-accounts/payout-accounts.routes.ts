import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createAccountChecksAdmin } from './account-checks.admin';
import type { AccountValidations } from './account-validation.service';
import { createPayoutAccountsService, type PayoutAccountsService } from './payout-accounts.service';

function payoutAccountsHandlers(accounts: PayoutAccountsService): Handlers {
  return {
    wdaccountBind: (ctx) => accounts.bind(ctx.user.id, ctx.body),
    wdaccountEdit: (ctx) => accounts.edit(ctx.user.id, ctx.body),
    wdaccountDelete: (ctx) => accounts.remove(ctx.user.id, ctx.body.id),
    wdaccountList: (ctx) => accounts.list(ctx.user.id),
  };
}

export function register(
  app: FastifyInstance,
  { db, now, replica, validations }: FeatureDeps & { validations: AccountValidations },
) {
  const checks = createAccountChecksAdmin({ db, replica, validations });
  registerRoutes(app, {
    ...payoutAccountsHandlers(createPayoutAccountsService({ db, now, validations })),
    adminAccountChecks: (ctx) => checks.list(ctx.query, ctx.actor.id),
    adminAccountCheckDecide: (ctx) => checks.decide(ctx.actor, ctx.body),
  });
}
