import { RAZORPAYX_SIGNATURE_HEADER } from '@kamai/contract';
import { caller, type Handlers } from '../../platform/routes';
import type { MismatchesService } from './payouts.mismatches';
import type { PayoutsService } from './payouts.service';

export function payoutsHandlers(payouts: PayoutsService, mismatches: MismatchesService): Handlers {
  return {
    payNotifyMasterpay: (ctx) => payouts.callback(ctx.query, ctx.log),
    payNotifyRazorpayx: (ctx) => {
      const signature = ctx.rawHeaders[RAZORPAYX_SIGNATURE_HEADER];
      return payouts.razorpayxWebhook(ctx.rawBody, typeof signature === 'string' ? signature : undefined, ctx.log);
    },
    adminPayoutMismatches: (ctx) => mismatches.list(ctx.query),
    adminPayoutMismatchResolve: (ctx) => mismatches.resolve({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}
