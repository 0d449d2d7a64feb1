import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createPayoutAccountsService, type PayoutAccountsService } from './payout-accounts.service';

function payoutAccountsHandlers(accounts: PayoutAccountsService): Handlers {
  return {
    wdaccountBind: (ctx) => accounts.bind(caller(ctx).id, ctx.body),
    wdaccountEdit: (ctx) => accounts.edit(caller(ctx).id, ctx.body),
    wdaccountDelete: (ctx) => accounts.remove(caller(ctx).id, ctx.body.id),
    wdaccountList: (ctx) => accounts.list(caller(ctx).id),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, payoutAccountsHandlers(createPayoutAccountsService({ db, now })));
}
