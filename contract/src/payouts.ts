import { z } from 'zod';
import { endpoints } from './endpoints';
import type { RouteDef } from './route-def';

/** Outcomes the gateway reports in its callback. */
export const PAYOUT_CALLBACK_STATUSES = ['success', 'failed'] as const;
export type PayoutCallbackStatus = (typeof PAYOUT_CALLBACK_STATUSES)[number];
/** A callback whose `ts` is further than this from our clock is refused (replays, DESIGN.md §5). */
export const PAYOUT_CALLBACK_MAX_SKEW_SECONDS = 300;
/** The body an accepted callback answers with: what the gateway expects, not the envelope. */
export const PAYOUT_CALLBACK_ACK = 'success';

const param = (max: number) => z.string().max(max, 'validation_failed').optional();

/**
 * The masterpay callback's query. Every parameter except `sign` is signed: `sign` is the hex
 * HMAC-SHA256, keyed by PAYOUT_GATEWAY_SECRET, of the parameters sorted by name and joined as
 * `k=v&k=v` (values as received, not URL-encoded). Unknown parameters are kept so they are signed too.
 * All are optional here so the service can refuse (and log) a bad callback with its own reason.
 */
export const payoutCallbackQuery = z
  .object({
    /** Our withdrawal id: the idempotency key we dispatched the payout with. */
    orderNo: param(40),
    status: param(20),
    /** Rupees, two decimals, e.g. "120.50"; must equal the withdrawal's amount. */
    amount: param(20),
    /** Bank reference (UTR) of a successful payout. */
    reference: param(100),
    /** Why a payout failed. */
    reason: param(200),
    /** Unix seconds when the gateway signed the callback. */
    ts: param(20),
    sign: param(128),
  })
  .catchall(z.string().max(500, 'validation_failed'));
export type PayoutCallbackQuery = z.infer<typeof payoutCallbackQuery>;

export const payoutRoutes = {
  payNotifyMasterpay: {
    ...endpoints.payNotifyMasterpay,
    policy: 'public',
    summary:
      'The payout gateway\'s signed callback. Accepted (or already applied): HTTP 200, body "success" as plain text. Refused: 400/401 envelope',
    tag: 'payouts',
    raw: true,
    query: payoutCallbackQuery,
    data: z.literal(PAYOUT_CALLBACK_ACK),
  },
} as const satisfies Record<string, RouteDef>;
