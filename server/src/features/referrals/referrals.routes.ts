import { caller, type Handlers } from '../../platform/routes';
import type { ReferralsService } from './referrals.service';

export function referralsHandlers(referrals: ReferralsService): Handlers {
  return {
    inviteList: (ctx) => referrals.inviteList(caller(ctx).id, ctx.query),
    adminRebateGet: () => referrals.rebateGet(),
    adminRebateSet: (ctx) => referrals.rebateSet({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}
