import { caller, type Handlers } from '../../platform/routes';
import type { PayoutAccountsService } from './payout-accounts.service';

export function payoutAccountsHandlers(accounts: PayoutAccountsService): Handlers {
  return {
    wdaccountBind: (ctx) => accounts.bind(caller(ctx).id, ctx.body),
    wdaccountEdit: (ctx) => accounts.edit(caller(ctx).id, ctx.body),
    wdaccountDelete: (ctx) => accounts.remove(caller(ctx).id, ctx.body.id),
    wdaccountList: (ctx) => accounts.list(caller(ctx).id),
  };
}
