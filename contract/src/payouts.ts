import { z } from 'zod';
import { razorpayxStatusDetails } from './account-validation';
import { endpoints } from './endpoints';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { refuseBidi } from './validation';
import { idempotencyKeyHeaders, WITHDRAWAL_STATES } from './withdrawals';

/** Outcomes the gateway reports in its callback. */
export const PAYOUT_CALLBACK_STATUSES = ['success', 'failed'] as const;
export type PayoutCallbackStatus = (typeof PAYOUT_CALLBACK_STATUSES)[number];
/** A callback whose `ts` is further than this from our clock is refused (replays, docs/design.md "State machines"). */
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

/** Where a withdrawal was paid through; recorded on each withdrawal at approval. */
export const PAYOUT_GATEWAYS = ['sandbox', 'razorpayx'] as const;
export type PayoutGatewayName = (typeof PAYOUT_GATEWAYS)[number];

/**
 * The payout webhook events RazorpayX publishes (https://razorpay.com/docs/webhooks/payloads/x/):
 * pending, rejected, queued, initiated, processed, updated, reversed, failed. There is no
 * `payout.cancelled`: a cancelled queued payout arrives as `payout.updated`. Each is read by its
 * entity's status (processed → paid; failed, rejected, cancelled → failed; reversed → reversed, or
 * failed before it was processed; the rest settle nothing), so `payout.updated` also brings the UTR
 * that often follows `processed`.
 */
export const RAZORPAYX_PAYOUT_EVENTS = [
  'payout.pending',
  'payout.rejected',
  'payout.queued',
  'payout.initiated',
  'payout.processed',
  'payout.updated',
  'payout.reversed',
  'payout.failed',
] as const;

/** The header carrying the hex HMAC-SHA256 of the raw webhook body, keyed by the webhook secret. */
export const RAZORPAYX_SIGNATURE_HEADER = 'x-razorpay-signature';

/** The part of a RazorpayX payout entity we read (their payout entity has more fields; they are kept). */
export const razorpayxPayoutEntity = z.looseObject({
  id: z.string().min(1).max(40),
  entity: z.literal('payout').optional(),
  amount: z.number().int().nonnegative(),
  currency: z.string().optional(),
  status: z.string().max(20),
  utr: z.string().max(100).nullish(),
  reference_id: z.string().max(40).nullish(),
  mode: z.string().nullish(),
  failure_reason: z.string().max(500).nullish(),
  status_details: razorpayxStatusDetails,
});
export type RazorpayxPayoutEntity = z.infer<typeof razorpayxPayoutEntity>;

/** A RazorpayX webhook delivery: `{entity: "event", event, contains, payload: {payout: {entity}}, created_at}`. */
export const razorpayxWebhookBody = z.looseObject({
  entity: z.literal('event').optional(),
  account_id: z.string().optional(),
  event: z.string().max(60),
  contains: z.array(z.string()).optional(),
  payload: z.looseObject({ payout: z.looseObject({ entity: razorpayxPayoutEntity }).optional() }),
  created_at: z.number().optional(),
});

export const MISMATCH_RESOLUTIONS = ['recover', 'dismiss'] as const;
export type MismatchResolution = (typeof MISMATCH_RESOLUTIONS)[number];
export const MISMATCH_REASON_MAX = 500;

/** A signed callback as it was received: the gateway's own fields, kept for the operator. */
const recordedCallback = z.object({
  status: z.string(),
  receivedAt: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

/**
 * What a mismatch is about: `callback`, a signed report that contradicts the withdrawal's state; the
 * rest are found by the daily reconciliation against the gateway's own record: `unknown_payout` (a
 * payout under Kamai's references that no withdrawal has, or a second one of a withdrawal),
 * `missing_payout` (a withdrawal sent that day the gateway has no payout for), `status` and `amount`
 * (they differ), `fees` (the gateway's fees or tax changed since it first reported them) and
 * `late_utr` (the bank's reference reached Kamai only through the reconciliation).
 */
export const PAYOUT_MISMATCH_KINDS = [
  'callback',
  'unknown_payout',
  'missing_payout',
  'status',
  'amount',
  'fees',
  'late_utr',
] as const;
export type PayoutMismatchKind = (typeof PAYOUT_MISMATCH_KINDS)[number];

/** A payout mismatch: a gateway's report or record that disagrees with what Kamai holds, for an operator. */
export const payoutMismatchItem = z.object({
  id: z.number().int(),
  kind: z.enum(PAYOUT_MISMATCH_KINDS),
  /** Null for a payout no withdrawal of Kamai's has. */
  withdrawalId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  username: z.string().nullable(),
  gateway: z.enum(PAYOUT_GATEWAYS),
  /** The gateway's payout id, when known. */
  payoutId: z.string().nullable(),
  /** The withdrawal's state when the mismatch was found (null: no withdrawal). */
  state: z.enum(WITHDRAWAL_STATES).nullable(),
  /** The withdrawal's state now. */
  currentState: z.enum(WITHDRAWAL_STATES).nullable(),
  /** What the contradicting callback said: `success` or `failed` (masterpay), `processed`, `failed`, `reversed`, ... (RazorpayX). */
  callbackStatus: z.string(),
  /** Rupees: the withdrawal's amount and the one the callback named. */
  amount: z.string(),
  callbackAmount: z.string().nullable(),
  /** Bank references: the withdrawal's and the callback's. */
  reference: z.string().nullable(),
  callbackReference: z.string().nullable(),
  /** The callback that settled the withdrawal (null when it predates their recording) and the contradicting one. */
  settledBy: recordedCallback.nullable(),
  /** The contradicting report (null when reconciliation found the difference without one). */
  callback: recordedCallback.nullable(),
  /** Reconciliation: what Kamai holds and what the gateway's record says, field by field. */
  details: z.record(z.string(), z.unknown()).nullable(),
  /** Whether "recover" applies: the amount went back to the wallet and the gateway's final word is that it paid. */
  recoverable: z.boolean(),
  createdAt: z.string(),
  resolved: z.boolean(),
  resolution: z.enum(MISMATCH_RESOLUTIONS).nullable(),
  resolutionReason: z.string().nullable(),
  resolvedBy: z.number().int().nullable(),
  resolvedAt: z.string().nullable(),
});
export type PayoutMismatchItem = z.infer<typeof payoutMismatchItem>;

export const adminMismatchQuery = pageQuery.extend({
  /** Left out: all; `false`: the open ones (what needs an operator). */
  resolved: z
    .enum(['true', 'false'], { error: 'validation_failed' })
    .transform((v) => v === 'true')
    .optional(),
});

export const adminMismatchResolveBody = z.object({
  id: z.coerce
    .number({ error: 'payout_mismatch_not_found' })
    .int('payout_mismatch_not_found')
    .positive('payout_mismatch_not_found'),
  /** `recover`: take the amount back from the user's wallet (a ledger posting); `dismiss`: close it with the reason. */
  action: z.enum(MISMATCH_RESOLUTIONS, { error: 'validation_failed' }),
  reason: z
    .string({ error: 'enter_resolve_reason' })
    .trim()
    .min(1, 'enter_resolve_reason')
    .max(MISMATCH_REASON_MAX, 'validation_failed'),
});

/** `YYYY-MM-DD`: an India calendar day. */
const dayField = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'validation_failed');

/** One run of the daily reconciliation against RazorpayX's record. */
export const payoutReconciliationRun = z.object({
  id: z.number().int(),
  gateway: z.enum(PAYOUT_GATEWAYS),
  day: z.string(),
  /** Null: the daily job. */
  startedBy: z.number().int().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(['running', 'done', 'failed']),
  /**
   * fetched (payouts RazorpayX listed), pages, ours, others (payouts of other installations or the
   * dashboard), matched, settled (withdrawals the record settled), rateLimited (429 answers honoured),
   * mismatches, and one count per mismatch kind.
   */
  counts: z.record(z.string(), z.number()),
  error: z.string().nullable(),
});
export type PayoutReconciliationRun = z.infer<typeof payoutReconciliationRun>;

export const payoutReconciliationStatus = z.object({
  /** The installation's prefix in every payout reference and idempotency key it sends. */
  referencePrefix: z.string(),
  /** Whether RazorpayX is configured (there is a record to reconcile against). */
  available: z.boolean(),
  last: payoutReconciliationRun.nullable(),
});
export type PayoutReconciliationStatus = z.infer<typeof payoutReconciliationStatus>;

export const adminReconciliationRunBody = z.object({
  /** The India day to reconcile; today when left out. */
  day: dayField.optional(),
});

export const payoutGatewayRoutes = {
  adminPayoutReconciliation: {
    ...endpoints.adminPayoutReconciliation,
    policy: 'admin',
    roles: STAFF,
    summary: "The installation's payout reference prefix and the last reconciliation against RazorpayX's record",
    tag: 'payouts',
    data: payoutReconciliationStatus,
  },
  adminPayoutReconciliationRun: {
    ...endpoints.adminPayoutReconciliationRun,
    policy: 'admin',
    summary:
      "Queues a reconciliation of one India day against RazorpayX's record (today when no day is given); every difference opens a payout mismatch. Audited",
    tag: 'payouts',
    headers: idempotencyKeyHeaders,
    body: adminReconciliationRunBody,
    data: z.object({ day: z.string() }),
    ok: 'payout_reconciliation_queued',
  },
  payNotifyRazorpayx: {
    ...endpoints.payNotifyRazorpayx,
    policy: 'public',
    summary:
      'RazorpayX payout webhooks. The X-Razorpay-Signature header must be the hex HMAC-SHA256 of the raw body with the webhook secret; anything else answers 401 before the body is read. Duplicates and events we do not act on are acknowledged',
    tag: 'payouts',
    rawBody: true,
    data: z.object({ applied: z.boolean() }),
  },
  adminPayoutMismatches: {
    ...endpoints.adminPayoutMismatches,
    policy: 'admin',
    roles: STAFF,
    summary: 'Payout mismatches: signed gateway callbacks that contradict a final state, newest first',
    tag: 'payouts',
    query: adminMismatchQuery,
    data: pageOf(payoutMismatchItem),
  },
  adminPayoutMismatchResolve: {
    ...endpoints.adminPayoutMismatchResolve,
    policy: 'admin',
    summary:
      "Resolves a payout mismatch: recover the amount from the user's wallet (refused, nothing taken, when the wallet holds less) or dismiss it with a reason; audited",
    tag: 'payouts',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(adminMismatchResolveBody),
    data: payoutMismatchItem,
    ok: 'payout_mismatch_resolved',
  },
} as const satisfies Record<string, RouteDef>;

/**
 * A RazorpayX payout's statuses and the only changes between them, as Razorpay publishes its life cycle
 * (https://razorpay.com/docs/x/payouts/states-life-cycle, https://razorpay.com/docs/x/payouts/queued):
 * pending (awaiting approval) → queued, scheduled or processing, or rejected/cancelled; queued and
 * scheduled → processing, or cancelled/failed; processing → processed, failed or reversed; processed
 * can only become reversed; reversed, rejected, failed and cancelled are final. A change that skips
 * states Kamai never heard of (webhooks are not ordered, some are never sent) is allowed: the table is
 * read as "can become, directly or later".
 */
export const RAZORPAYX_PAYOUT_STATUSES = [
  'pending',
  'queued',
  'scheduled',
  'processing',
  'processed',
  'reversed',
  'rejected',
  'failed',
  'cancelled',
] as const;
export type RazorpayxPayoutStatus = (typeof RAZORPAYX_PAYOUT_STATUSES)[number];

export const RAZORPAYX_PAYOUT_TRANSITIONS: Record<RazorpayxPayoutStatus, readonly RazorpayxPayoutStatus[]> = {
  pending: ['queued', 'scheduled', 'processing', 'rejected', 'cancelled'],
  queued: ['processing', 'cancelled', 'failed'],
  scheduled: ['queued', 'processing', 'cancelled', 'failed'],
  processing: ['processed', 'failed', 'reversed'],
  processed: ['reversed'],
  reversed: [],
  rejected: [],
  failed: [],
  cancelled: [],
};

/** Whether `to` can follow `from` in RazorpayX's life cycle, directly or through states in between. */
export function payoutStatusCanFollow(from: RazorpayxPayoutStatus, to: RazorpayxPayoutStatus): boolean {
  const seen = new Set<RazorpayxPayoutStatus>();
  const next: RazorpayxPayoutStatus[] = [from];
  while (next.length > 0) {
    const status = next.pop() as RazorpayxPayoutStatus;
    for (const after of RAZORPAYX_PAYOUT_TRANSITIONS[status]) {
      if (after === to) return true;
      if (!seen.has(after)) {
        seen.add(after);
        next.push(after);
      }
    }
  }
  return false;
}

/**
 * How a reported status relates to the one Kamai holds for the payout: `advance` (it can follow: apply
 * it), `same` (a repeat, maybe with news such as the UTR), `stale` (it comes before the one held: an
 * out-of-order delivery that changes nothing) or `contradiction` (neither can follow the other: an
 * operator looks). Nothing held yet: `advance`.
 */
export type PayoutStatusStep = 'advance' | 'same' | 'stale' | 'contradiction';
export function payoutStatusStep(
  held: RazorpayxPayoutStatus | null,
  reported: RazorpayxPayoutStatus,
): PayoutStatusStep {
  if (held === null) return 'advance';
  if (held === reported) return 'same';
  if (payoutStatusCanFollow(held, reported)) return 'advance';
  if (payoutStatusCanFollow(reported, held)) return 'stale';
  return 'contradiction';
}

/** A gateway's word as a RazorpayX status: masterpay's success/failed, our own "refused" (a create refused with 400). */
export function asPayoutStatus(word: string | null | undefined): RazorpayxPayoutStatus | null {
  if (word === 'success') return 'processed';
  if (word === 'refused') return 'failed';
  return (RAZORPAYX_PAYOUT_STATUSES as readonly string[]).includes(word ?? '') ? (word as RazorpayxPayoutStatus) : null;
}
