import { z } from 'zod';
import { INCOME_DAY_RANGES } from './constants';
import { pageOf } from './pagination';

/** What moved money (docs/design.md "Money rules"); every posting has exactly one. */
export const POSTING_TYPES = [
  'task_reward',
  'rebate',
  /** An operator's manual credit to a user's wallet (admin/revenue/add): platform revenue → wallet. */
  'manual_credit',
  'linked_income',
  'withdrawal_hold',
  'withdrawal_refund',
  'withdrawal_paid',
  /** A paid payout the bank returned (RazorpayX `payout.reversed`): platform payouts → wallet. */
  'withdrawal_reversal',
  /** An operator recovered money a contradictory gateway callback left twice with the user: wallet → platform payouts. */
  'payout_recovery',
  /** A payout account check's fee (RazorpayX account validation): platform revenue → platform expenses. */
  'account_validation_fee',
  /** A pending rebate taken back (its source reward reversed, its invitee a duplicate identity, its earner now staff): the earner's pending rebates → platform rewards. */
  'rebate_reversal',
  /** An operator took back a task reward: wallet → platform rewards (its pending rebates are reversed with it). */
  'task_reward_reversal',
] as const;
export type PostingType = (typeof POSTING_TYPES)[number];

/**
 * A user's accounts keep a cached balance that never goes below zero. `rebate_pending`: rebates owed on
 * invitees' task rewards that are still in their hold; not withdrawable (docs/decisions/rebate-hold.md).
 */
export const USER_ACCOUNT_KINDS = ['wallet', 'hold', 'rebate_pending'] as const;
export type UserAccountKind = (typeof USER_ACCOUNT_KINDS)[number];
/** Platform accounts have no cached balance (their balance is the sum of their entries) and may go negative. */
export const PLATFORM_ACCOUNT_KINDS = [
  'platform_rewards',
  'platform_revenue',
  'platform_payouts',
  /** What the platform pays providers for its own operations (account validation fees). */
  'platform_expenses',
  /** Money that came back for a deleted account, waiting for an operator (docs/decisions/unclaimed-money.md). */
  'platform_unclaimed',
] as const;
export type PlatformAccountKind = (typeof PLATFORM_ACCOUNT_KINDS)[number];

/** What caused a posting, shown beside the movement in the user's balance list. */
export const postingRef = z.object({
  taskId: z.number().int().optional(),
  taskTitle: z.string().optional(),
  inviteeId: z.number().int().optional(),
  level: z.number().int().optional(),
  withdrawalId: z.number().int().optional(),
  linkedAccountId: z.number().int().optional(),
  /** An operator's manual credit: the text meant for the user (none: a generic label shows). */
  remark: z.string().optional(),
  /** An operator's manual credit: the internal note. Staff only; never in a user's answer. */
  note: z.string().optional(),
  /** A rebate's row (`rebates`) and the task reward posting it was owed on. */
  rebateId: z.number().int().optional(),
  sourcePostingId: z.number().int().optional(),
});
export type PostingRef = z.infer<typeof postingRef>;

/** One movement of the caller's wallet; amounts are rupee strings, negative for money going out. */
export const balanceItem = z.object({
  id: z.number().int(),
  type: z.enum(POSTING_TYPES),
  amount: z.string(),
  balanceAfter: z.string(),
  createdAt: z.string(),
  ref: postingRef,
});
export const balancePage = pageOf(balanceItem);
export type BalanceItem = z.infer<typeof balanceItem>;

export const incomeDailyQuery = z.object({
  days: z.coerce
    .number({ error: 'validation_failed' })
    .refine((n) => (INCOME_DAY_RANGES as readonly number[]).includes(n), 'validation_failed')
    .default(7),
});

/** The caller's earnings per day in India, oldest first, every day present; rupee strings by kind. */
export const incomeDailyData = z.object({
  timeZone: z.string(),
  days: z.array(
    z.object({
      day: z.string(),
      task_reward: z.string(),
      rebate: z.string(),
      linked_income: z.string(),
      manual_credit: z.string(),
    }),
  ),
});
export type IncomeDaily = z.infer<typeof incomeDailyData>;

export const LEDGER_RULES = [
  'posting_unbalanced',
  'balance_mismatch',
  'balance_after_mismatch',
  'negative_balance',
  'hold_mismatch',
] as const;

/** How many business-rule violations `admin/ledger/check` lists with their postings (all are counted in `rules`). */
export const LEDGER_VIOLATIONS_SHOWN = 100;

/** One entry of a posting a violation names: the account (user or platform), signed rupees. */
export const ledgerViolationEntry = z.object({
  accountId: z.number().int(),
  /** Null for a platform account. */
  userId: z.number().int().nullable(),
  kind: z.string(),
  amount: z.string(),
});

/**
 * A business rule of money broken (docs/decisions/ledger-rules.md): the rule's name, the evidence in
 * words (ids and paise, for the operator who investigates) and the postings involved with their entries.
 */
export const ledgerViolation = z.object({
  rule: z.string(),
  detail: z.string(),
  postingIds: z.array(z.string()),
  postings: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      idempotencyKey: z.string(),
      createdAt: z.string(),
      entries: z.array(ledgerViolationEntry),
    }),
  ),
});
export type LedgerViolation = z.infer<typeof ledgerViolation>;

/**
 * The ledger's invariants (docs/design.md "Money rules") and its business rules as checked now. `problems`:
 * the invariants (every posting balances, cached balances match, none negative; `hold_mismatch`: a
 * user's hold differs from the sum of their withdrawals that are pending, approved or processing).
 * `rules`: every business rule checked and how many violations it found; `violations`: the first
 * LEDGER_VIOLATIONS_SHOWN of them. `ok` when both are clean.
 */
export const ledgerCheckData = z.object({
  ok: z.boolean(),
  problems: z.array(
    z.object({
      rule: z.enum(LEDGER_RULES),
      postingId: z.number().int().nullable(),
      accountId: z.number().int().nullable(),
      detail: z.string(),
    }),
  ),
  rules: z.array(z.object({ rule: z.string(), violations: z.number().int() })),
  violations: z.array(ledgerViolation),
});
export type LedgerCheck = z.infer<typeof ledgerCheckData>;
/** The invariants alone (`checkLedger`), without the business rules. */
export type LedgerInvariants = Pick<LedgerCheck, 'ok' | 'problems'>;
