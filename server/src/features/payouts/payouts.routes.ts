import type { Handlers } from '../../platform/routes';
import type { PayoutsService } from './payouts.service';

export function payoutsHandlers(payouts: PayoutsService): Handlers {
  return {
    payNotifyMasterpay: (ctx) => payouts.callback(ctx.query, ctx.log),
  };
}
