import { z } from 'zod';
import { accountVerification, comparedName } from './account-validation';
import type { MessageKey } from './catalogue';
import { AMOUNT_TEXT_MAX } from './constants';
import { endpoints } from './endpoints';
import { RISK_REASON_KEYS, withdrawalApprovals, withdrawalRisk } from './fraud';
import { paiseVar, parseRupees, rupeeAmountField } from './money';
import { pageOf, pageQuery } from './pagination';
import { PAYOUT_ACCOUNT_TYPES } from './payout-accounts';
import { rejectPresetField } from './reject-reasons';
import { type RouteDef, STAFF } from './route-def';
import { refuseBidi } from './validation';

/**
 * A withdrawal's life (docs/design.md "State machines"): `pending` (under review) → `rejected` (hold returned) or
 * `approved` → `processing` (sent to the gateway) → `paid` or `failed` (hold returned). A paid
 * payout the bank later returns (RazorpayX `payout.reversed`) becomes `reversed`: the money is back
 * in the wallet.
 */
export const WITHDRAWAL_STATES = [
  'pending',
  'approved',
  'processing',
  'paid',
  'failed',
  'rejected',
  'cancelled',
  'reversed',
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/** The only allowed changes; anything else answers 409 `withdrawal_state_conflict`. */
export const WITHDRAWAL_TRANSITIONS: Record<WithdrawalState, readonly WithdrawalState[]> = {
  pending: ['approved', 'rejected', 'cancelled'],
  approved: ['processing'],
  processing: ['paid', 'failed'],
  /** Only the gateway's report that the bank returned the money. */
  paid: ['reversed'],
  failed: [],
  rejected: [],
  cancelled: [],
  reversed: [],
};

/** States whose amount is on the user's hold. */
export const WITHDRAWAL_OPEN_STATES = ['pending', 'approved', 'processing'] as const satisfies WithdrawalState[];
/** States with an outcome (`finishedAt` set); only `paid` may still turn `reversed`. */
export const WITHDRAWAL_FINAL_STATES = [
  'paid',
  'failed',
  'rejected',
  'reversed',
  'cancelled',
] as const satisfies WithdrawalState[];

export function canTransition(from: WithdrawalState, to: WithdrawalState): boolean {
  return WITHDRAWAL_TRANSITIONS[from].includes(to);
}

/** Catalogue key of each state's label: Under review, Approved, Processing, Payment successful, ... */
export const WITHDRAWAL_STATE_LABELS = {
  pending: 'withdrawal_state_pending',
  approved: 'withdrawal_state_approved',
  processing: 'withdrawal_state_processing',
  paid: 'withdrawal_state_paid',
  failed: 'withdrawal_state_failed',
  rejected: 'withdrawal_state_rejected',
  cancelled: 'withdrawal_state_cancelled',
  reversed: 'withdrawal_state_reversed',
} as const satisfies Record<WithdrawalState, MessageKey>;

const STATE_LABEL_KEYS = [
  'withdrawal_state_pending',
  'withdrawal_state_approved',
  'withdrawal_state_processing',
  'withdrawal_state_paid',
  'withdrawal_state_failed',
  'withdrawal_state_rejected',
  'withdrawal_state_cancelled',
  'withdrawal_state_reversed',
] as const satisfies (typeof WITHDRAWAL_STATE_LABELS)[WithdrawalState][];

export const REJECT_REASON_MAX = 200;
/** Header a client sets so a retried `withdraw/add` cannot make a second withdrawal. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Withdrawal amount (spec: "enter withdrawal amount"): rupees, > 0, at most two decimals → paise. */
export const withdrawalAmountField = z
  .union([z.string().max(AMOUNT_TEXT_MAX, 'invalid_amount'), z.number()], { error: 'enter_withdrawal_amount' })
  .refine((value) => String(value).trim() !== '', { message: 'enter_withdrawal_amount', abort: true })
  .pipe(rupeeAmountField);

/** Limits in paise, as the server applies them. */
export interface WithdrawalLimitsPaise {
  min: bigint;
  max: bigint;
  dailyCount: number;
  dailyTotal: bigint;
}

/**
 * Today's requests (India's calendar day) as the limits see them (docs/decisions/withdrawals.md):
 * `count` and `total` of the requests not cancelled, whatever became of them, and how many were
 * `cancelled`. A cancelled request uses nothing of the day's total (its money never left), and up to
 * `dailyCount` cancellations a day use nothing of the count either; each cancellation beyond those
 * counts as a request, so a day holds at most twice `dailyCount` requests. Counted by the database
 * (`withdrawal_usage`).
 */
export interface WithdrawalsToday {
  count: number;
  total: bigint;
  cancelled: number;
}

/**
 * One refusal of the withdrawal limits for the caller's day: amounts from `fromPaise` to `toPaise` (both
 * inclusive; null: no end) meet it. The rule is the database's alone (db/functions
 * `withdrawal_limit_refusals`): the server refuses under the wallet lock with the first refusal that
 * holds the amount, and the form gets the same list with the limits to warn before it asks.
 */
export const withdrawalLimitRefusal = z.object({
  fromPaise: z.string().nullable(),
  toPaise: z.string().nullable(),
  key: z.string(),
  /** The message's variables, money as `{paise}` (`formatMoneyVars`). */
  vars: z.record(z.string(), z.union([z.string(), z.number(), paiseVar])),
});
export type WithdrawalLimitRefusal = z.infer<typeof withdrawalLimitRefusal>;

/** The first refusal whose range holds `amount`, or undefined (the same lookup as `withdrawal_limit_problem`). */
export function limitRefusalFor(
  amount: bigint,
  refusals: readonly WithdrawalLimitRefusal[],
): WithdrawalLimitRefusal | undefined {
  return refusals.find(
    (r) =>
      (r.fromPaise === null || amount >= BigInt(r.fromPaise)) && (r.toPaise === null || amount <= BigInt(r.toPaise)),
  );
}

export const withdrawAddBody = z.object({
  amount: withdrawalAmountField,
  /** A saved payout account of the caller; left out: the default account. */
  accountId: z.coerce
    .number({ error: 'payout_account_not_found' })
    .int('payout_account_not_found')
    .positive('payout_account_not_found')
    .nullish(),
});
export type WithdrawAddBody = z.input<typeof withdrawAddBody>;

/**
 * Optional `Idempotency-Key`: printable ASCII, 1-100 characters (a UUID is a good choice). Taken by
 * every route that moves money, so a request answered 503 (say, in a database failover) is retried safely.
 */
export const idempotencyKeyHeaders = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string({ error: 'idempotency_key_invalid' })
    .max(100, 'idempotency_key_invalid')
    .regex(/^[\x21-\x7e]{1,100}$/, 'idempotency_key_invalid')
    .optional(),
});

/** The payout account a withdrawal goes to, as it was when requested (later edits do not change it). */
export const withdrawalAccount = z.object({
  /** Null once the account has been deleted. */
  id: z.number().int().nullable(),
  accountType: z.enum(PAYOUT_ACCOUNT_TYPES),
  /** Masked like `wdaccount/list`: "••••3456" or "as•••@okaxis". */
  accountNoMasked: z.string(),
  accountName: z.string(),
  ifsc: z.string(),
});

export const withdrawalHistoryItem = z.object({
  state: z.enum(WITHDRAWAL_STATES),
  /** Reviewer's reason (rejected, optional on approved), gateway's failure text, bank reference (paid). */
  reason: z.string().nullable(),
  at: z.string(),
});

/**
 * The steps of a withdrawal's timeline: requested → under review → approved → sent to the bank →
 * paid, or it ends `rejected`, `cancelled` or `returned` (the payment failed, or the bank sent a paid
 * one back); the amount is then back in the balance.
 */
export const WITHDRAWAL_TIMELINE_STEPS = [
  'requested',
  'review',
  'approved',
  'sent',
  'paid',
  'returned',
  'rejected',
  'cancelled',
] as const;
export type WithdrawalTimelineStep = (typeof WITHDRAWAL_TIMELINE_STEPS)[number];
/** Steps a withdrawal goes through when all goes well, in order. */
export const WITHDRAWAL_ROAD = ['requested', 'review', 'approved', 'sent', 'paid'] as const;
/** Where a withdrawal that left the road ends: the amount is back in the balance. */
export const WITHDRAWAL_END_STEPS = ['returned', 'rejected', 'cancelled'] as const;

/** The history state that reaches each step after `requested` and `review` (both reached by `pending`). */
const STEP_OF_STATE: Record<Exclude<WithdrawalState, 'pending'>, WithdrawalTimelineStep> = {
  approved: 'approved',
  processing: 'sent',
  paid: 'paid',
  failed: 'returned',
  reversed: 'returned',
  rejected: 'rejected',
  cancelled: 'cancelled',
};

export const withdrawalTimelineItem = z.object({
  step: z.enum(WITHDRAWAL_TIMELINE_STEPS),
  /** `done`: reached and left; `current`: where the withdrawal is now; `todo`: still to come (no time). */
  status: z.enum(['done', 'current', 'todo']),
  /** When the step was reached (ISO); null for a step to come. */
  at: z.string().nullable(),
  /** `paid`: the bank reference (UTR), null until the bank gives it; `returned`, `rejected`: the reason. */
  detail: z.string().nullable(),
});
export type WithdrawalTimelineItem = z.infer<typeof withdrawalTimelineItem>;

/**
 * A withdrawal's timeline from its state history (oldest first): each step reached with its time, the
 * one it is at marked `current` while it is open, the steps to come while it is open; a withdrawal that
 * was rejected, cancelled or returned ends with that step.
 */
export function withdrawalTimeline(
  withdrawal: { state: WithdrawalState; reference: string | null; createdAt: string },
  history: readonly { state: WithdrawalState; reason: string | null; at: string }[],
): WithdrawalTimelineItem[] {
  const requested = history.find((h) => h.state === 'pending')?.at ?? withdrawal.createdAt;
  const reached = new Map<WithdrawalTimelineStep, { at: string; detail: string | null }>([
    ['requested', { at: requested, detail: null }],
    ['review', { at: requested, detail: null }],
  ]);
  for (const h of history) {
    if (h.state === 'pending') continue;
    const step = STEP_OF_STATE[h.state];
    reached.set(step, { at: h.at, detail: step === 'paid' ? (withdrawal.reference ?? h.reason) : h.reason });
  }
  const open = (WITHDRAWAL_OPEN_STATES as readonly WithdrawalState[]).includes(withdrawal.state);
  const here: WithdrawalTimelineStep | undefined = open
    ? withdrawal.state === 'pending'
      ? 'review'
      : STEP_OF_STATE[withdrawal.state as Exclude<WithdrawalState, 'pending'>]
    : undefined;
  const items: WithdrawalTimelineItem[] = [];
  for (const step of WITHDRAWAL_ROAD) {
    const at = reached.get(step);
    if (at) items.push({ step, status: step === here ? 'current' : 'done', at: at.at, detail: at.detail });
    else if (open) items.push({ step, status: 'todo', at: null, detail: null });
  }
  for (const step of WITHDRAWAL_END_STEPS) {
    const at = reached.get(step);
    if (at) items.push({ step, status: 'done', at: at.at, detail: at.detail });
  }
  return items;
}

/** One withdrawal as its owner sees it in /List4. */
export const withdrawalItem = z.object({
  id: z.number().int(),
  /** Rupees, "120.50": what left the wallet. */
  amount: z.string(),
  /** The fee taken from the amount when it is paid (the setting when requested); "0.00" without one. */
  fee: z.string(),
  /** What reaches the account: amount − fee. */
  payout: z.string(),
  state: z.enum(WITHDRAWAL_STATES),
  /** Catalogue key of the state's label (`WITHDRAWAL_STATE_LABELS`). */
  stateLabelKey: z.enum(STATE_LABEL_KEYS),
  /** The rejection's or the failure's reason; null otherwise. */
  reason: z.string().nullable(),
  /** The bank reference once paid. */
  reference: z.string().nullable(),
  account: withdrawalAccount,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When it became paid, failed or rejected. */
  finishedAt: z.string().nullable(),
  /** Oldest first, starting with `pending`. */
  history: z.array(withdrawalHistoryItem),
  /** The steps for the user (`withdrawalTimeline`): each with its time, the UTR when paid. */
  timeline: z.array(withdrawalTimelineItem),
  /** Rupees back in the balance: the whole amount once rejected, cancelled, failed or reversed; null otherwise. */
  returned: z.string().nullable(),
});
export type WithdrawalItem = z.infer<typeof withdrawalItem>;
export const withdrawalPage = pageOf(withdrawalItem);

/** What the withdraw form shows: the limits, what today has used, and the balance. Rupee strings. */
export const withdrawLimitsData = z.object({
  min: z.string(),
  max: z.string(),
  dailyCount: z.number().int(),
  dailyTotal: z.string(),
  /** Today's requests not cancelled (India's calendar day), whatever became of them. */
  todayCount: z.number().int(),
  /** Today's requests not cancelled, rupees. */
  todayTotal: z.string(),
  balance: z.string(),
  frozen: z.boolean(),
  /** The fee taken from each withdrawal when paid, rupees ("0.00": none). */
  fee: z.string(),
  /** Usually paid within this many hours of the request. */
  payoutHours: z.number().int(),
  /** Requests cancelled today: up to `dailyCount` of them use nothing of the limits. */
  todayCancelled: z.number().int(),
  /** Requests still possible today (the database's `withdrawal_limit_refusals` counts them), at least 0. */
  requestsLeft: z.number().int(),
  /** What the limits refuse today, in the order they are tried (`limitRefusalFor`). */
  refusals: z.array(withdrawalLimitRefusal),
});

export const withdrawCancelBody = z.object({
  id: z.coerce.number({ error: 'withdrawal_not_found' }).int('withdrawal_not_found').positive('withdrawal_not_found'),
});

const dayField = z.iso.date({ error: 'validation_failed' }).max(10, 'validation_failed');

const riskReasonKeys = Object.values(RISK_REASON_KEYS) as [string, ...string[]];

/**
 * Admin list filters; `from`/`to` are India calendar days (YYYY-MM-DD), both inclusive. `minRisk`
 * keeps withdrawals scored at least that much, `reason` those with that risk reason (catalogue key);
 * `sort=risk` orders by score, highest first (then newest first) instead of pending first.
 */
export const adminWithdrawQuery = pageQuery.extend({
  state: z.enum(WITHDRAWAL_STATES, { error: 'validation_failed' }).optional(),
  userId: z.coerce.number({ error: 'validation_failed' }).int().positive().optional(),
  from: dayField.optional(),
  to: dayField.optional(),
  minRisk: z.coerce.number({ error: 'validation_failed' }).int('validation_failed').min(0).max(1000).optional(),
  reason: z.enum(riskReasonKeys, { error: 'validation_failed' }).optional(),
  sort: z.enum(['queue', 'risk'], { error: 'validation_failed' }).default('queue'),
});

export const adminWithdrawalItem = withdrawalItem.extend({
  userId: z.number().int(),
  username: z.string(),
  /** Admin sees the whole account: number unmasked. */
  account: withdrawalAccount.extend({ accountNo: z.string() }),
  reviewerId: z.number().int().nullable(),
  reviewedAt: z.string().nullable(),
  history: z.array(withdrawalHistoryItem.extend({ actorId: z.number().int().nullable() })),
  /** Scored when requested: the sum of the weights of the signals that fired, and their reasons. */
  risk: withdrawalRisk,
  /** Above the second-approval threshold two different reviewers approve: the first records, the second dispatches. */
  approvals: withdrawalApprovals,
  /**
   * The bank's check of the number paid (null: never checked): its state, the bank's registered name
   * beside the typed `account.accountName`, and how well they match (0-100). The server judges each
   * match against the `accountValidation.nameMatchMin` setting: `nameMatchLow` when the typed name's is
   * below it. `otherNames`: the user's other accounts the bank's name was compared with, each judged
   * the same way (verified only, else empty); any low match sets off `risk_bank_name_mismatch`.
   */
  payeeCheck: accountVerification
    .extend({
      nameMatch: z.number().int().nullable(),
      nameMatchLow: z.boolean(),
      otherNames: z.array(comparedName),
    })
    .nullable(),
});
export type AdminWithdrawalItem = z.infer<typeof adminWithdrawalItem>;

export const WITHDRAWAL_REVIEW_ACTIONS = ['approve', 'reject'] as const;
export const adminWithdrawReviewBody = z
  .object({
    id: z.coerce.number({ error: 'withdrawal_not_found' }).int('withdrawal_not_found').positive('withdrawal_not_found'),
    action: z.enum(WITHDRAWAL_REVIEW_ACTIONS, { error: 'validation_failed' }),
    /** A rejection's reason from the translated list (`WITHDRAWAL_REJECT_PRESETS`); the user reads it in their language. */
    preset: rejectPresetField.optional(),
    /** Optional note beside the preset (a rejection needs a preset or a note); optional note on approval. */
    reason: z.string({ error: 'enter_reject_reason' }).trim().max(REJECT_REASON_MAX, 'validation_failed').default(''),
  })
  .refine((body) => body.action !== 'reject' || body.reason !== '' || body.preset !== undefined, {
    message: 'enter_reject_reason',
    path: ['reason'],
  });

/** Withdrawal limits as the API shows them (rupee strings). Defaults ₹100, ₹50,000, 3 a day, ₹1,00,000 a day. */
export const withdrawalLimits = z.object({
  min: z.string(),
  max: z.string(),
  dailyCount: z.number().int(),
  dailyTotal: z.string(),
  /** Taken from each withdrawal when paid; "0.00" by default. */
  fee: z.string(),
  /** The payout time the withdraw dialog promises, in hours (default 24). */
  payoutHours: z.number().int(),
});
export const PAYOUT_HOURS_MAX = 720;
export type WithdrawalLimits = z.infer<typeof withdrawalLimits>;

export const DAILY_COUNT_MAX = 100;
/** A change to the withdrawal limits on the settings page (settings.ts); fields left out stay as they are. */
export const withdrawalLimitsChange = z.object({
  min: rupeeAmountField.optional(),
  max: rupeeAmountField.optional(),
  dailyCount: z.coerce
    .number({ error: 'validation_failed' })
    .int('validation_failed')
    .min(1, 'validation_failed')
    .max(DAILY_COUNT_MAX, 'validation_failed')
    .optional(),
  dailyTotal: rupeeAmountField.optional(),
  /** Rupees, 0 allowed. */
  fee: z
    .union([z.string().max(AMOUNT_TEXT_MAX, 'invalid_amount'), z.number()], { error: 'invalid_amount' })
    .transform((value, ctx) => {
      const paise = parseRupees(value);
      if (paise === undefined) {
        ctx.addIssue({ code: 'custom', message: 'invalid_amount' });
        return z.NEVER;
      }
      return paise;
    })
    .optional(),
  payoutHours: z.coerce
    .number({ error: 'validation_failed' })
    .int('validation_failed')
    .min(1, 'validation_failed')
    .max(PAYOUT_HOURS_MAX, 'validation_failed')
    .optional(),
});

export const withdrawalRoutes = {
  withdrawAdd: {
    ...endpoints.withdrawAdd,
    policy: 'user',
    summary:
      'Requests a withdrawal: the amount moves to a hold at once and waits for review. Honours an Idempotency-Key header',
    tag: 'withdrawals',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(withdrawAddBody),
    data: z.object({ id: z.number().int() }),
    ok: 'withdrawal_submitted',
  },
  withdrawList: {
    ...endpoints.withdrawList,
    policy: 'user',
    summary: "The caller's withdrawals, newest first, with state, reason and history (keyset pages)",
    tag: 'withdrawals',
    query: pageQuery,
    data: withdrawalPage,
  },
  withdrawCancel: {
    ...endpoints.withdrawCancel,
    policy: 'user',
    summary: "Cancels the caller's withdrawal while it is still under review; the amount returns to the balance",
    tag: 'withdrawals',
    body: refuseBidi(withdrawCancelBody),
    data: withdrawalItem,
    ok: 'withdrawal_cancelled',
  },
  withdrawLimits: {
    ...endpoints.withdrawLimits,
    policy: 'user',
    summary: "The withdrawal limits, what the caller has used today, and the caller's balance",
    tag: 'withdrawals',
    data: withdrawLimitsData,
  },
  adminWithdrawList: {
    ...endpoints.adminWithdrawList,
    policy: 'admin',
    roles: STAFF,
    summary:
      'Withdrawals by state, user and India calendar day; pending ones first, oldest first, then the rest newest first',
    tag: 'withdrawals',
    query: adminWithdrawQuery,
    data: pageOf(adminWithdrawalItem),
  },
  adminWithdrawReview: {
    ...endpoints.adminWithdrawReview,
    policy: 'admin',
    roles: STAFF,
    summary: 'Approves (queues the payout) or rejects (returns the hold, reason required) a pending withdrawal',
    tag: 'withdrawals',
    body: refuseBidi(adminWithdrawReviewBody),
    data: adminWithdrawalItem,
    ok: 'withdrawal_reviewed',
  },
} as const satisfies Record<string, RouteDef>;
