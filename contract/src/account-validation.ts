import { z } from 'zod';
import type { MessageKey } from './catalogue';
import { AMOUNT_TEXT_MAX } from './constants';
import { endpoints } from './endpoints';
import { parseRupees } from './money';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';

/**
 * Payout account validation (docs/decisions/payout-account-validation.md): the bank's registered name
 * for a bank account (penny drop) or a UPI id (VPA lookup), before money moves.
 */

/**
 * What the owner sees of an account's check: under way with the bank, with an operator (`review`: the
 * bank check is not available or took too long), the bank's name, or why it could not be checked.
 */
export const ACCOUNT_VERIFICATION_STATES = ['verifying', 'review', 'verified', 'unverified'] as const;
export type AccountVerificationState = (typeof ACCOUNT_VERIFICATION_STATES)[number];

/** RazorpayX's `status_details` of a payout or a validation: why it is in its state, in words. */
export const razorpayxStatusDetails = z
  .looseObject({
    description: z.string().max(500).nullish(),
    source: z.string().nullish(),
    reason: z.string().nullish(),
  })
  .nullish();

/** The reasons an operator may refuse a number with (their texts are the reject presets, six languages). */
export const ACCOUNT_CHECK_REFUSALS = [
  'account_mismatch',
  'account_invalid',
  'duplicate',
  'suspicious_activity',
  'other',
] as const;
export type AccountCheckRefusal = (typeof ACCOUNT_CHECK_REFUSALS)[number];
/** Each refusal's text: the withdrawal reject presets' (reject-reasons.ts), already in six languages. */
export const ACCOUNT_CHECK_REFUSAL_KEYS = {
  account_mismatch: 'reject_preset_account_mismatch',
  account_invalid: 'reject_preset_account_invalid',
  duplicate: 'reject_preset_duplicate',
  suspicious_activity: 'reject_preset_suspicious_activity',
  other: 'reject_preset_other',
} as const satisfies Record<AccountCheckRefusal, MessageKey>;
export const accountVerification = z.object({
  state: z.enum(ACCOUNT_VERIFICATION_STATES),
  /** The name the bank holds for the account (verified only); shown to the owner and to staff. */
  registeredName: z.string().nullable(),
  /** Why it could not be verified (unverified only): the bank's or the gateway's words. */
  reason: z.string().nullable(),
  /** An operator's refusal: the reason's catalogue key (read in the user's language); null otherwise. */
  reasonKey: z.enum(Object.values(ACCOUNT_CHECK_REFUSAL_KEYS) as [MessageKey, ...MessageKey[]]).nullable(),
  /** Who verified it: the bank (a registered name) or an operator (no registered name). */
  verifiedBy: z.enum(['bank', 'operator']).nullable(),
});
export type AccountVerification = z.infer<typeof accountVerification>;

/** Defaults of the `accountValidation` settings. */
export const ACCOUNT_VALIDATION_DEFAULTS = {
  /** New account checks one user may start in 24 hours (reused results of the user's own accounts are free). */
  dailyLimit: 3,
  /** Paise one validation costs the platform (RazorpayX's fee; posted as a platform expense). */
  feePaise: 300,
  /** Name match below this (0-100) is a risk reason in the review queue. */
  nameMatchMin: 70,
};
export type AccountValidationSettings = typeof ACCOUNT_VALIDATION_DEFAULTS;

/** The most account checks a day the setting allows, and the highest fee per check (paise: ₹100). */
export const ACCOUNT_CHECKS_A_DAY_MAX = 100;
export const ACCOUNT_CHECK_FEE_MAX_PAISE = 10_000;

/** The `accountValidation` settings as the console shows them (the fee as a rupee string). */
export const accountValidationSettings = z.object({
  dailyLimit: z.number().int(),
  fee: z.string(),
  nameMatchMin: z.number().int(),
});
export type AccountValidationSettingsShown = z.infer<typeof accountValidationSettings>;

/** A change of the `accountValidation` settings; fields left out stay. The fee in rupees (0 allowed) → paise. */
export const accountValidationSettingsChange = z.object({
  dailyLimit: z.coerce
    .number({ error: 'account_check_limit_range' })
    .int('account_check_limit_range')
    .min(1, 'account_check_limit_range')
    .max(ACCOUNT_CHECKS_A_DAY_MAX, 'account_check_limit_range')
    .optional(),
  fee: z
    .union([z.string().max(AMOUNT_TEXT_MAX, 'account_check_fee_range'), z.number()], {
      error: 'account_check_fee_range',
    })
    .transform((value, ctx) => {
      const paise = parseRupees(value);
      if (paise === undefined || paise > BigInt(ACCOUNT_CHECK_FEE_MAX_PAISE)) {
        ctx.addIssue({ code: 'custom', message: 'account_check_fee_range' });
        return z.NEVER;
      }
      return paise;
    })
    .optional(),
  nameMatchMin: z.coerce
    .number({ error: 'name_match_min_range' })
    .int('name_match_min_range')
    .min(0, 'name_match_min_range')
    .max(100, 'name_match_min_range')
    .optional(),
});
export type AccountValidationSettingsChange = z.output<typeof accountValidationSettingsChange>;

/**
 * What a reviewer sees of a withdrawal's names (the server judges, against `nameMatchMin`): one of the
 * user's other accounts, the name typed for it and the bank's name for it, and the match of the paid
 * account's bank name with the name compared (the bank's, else the typed one).
 */
export const comparedName = z.object({
  accountName: z.string(),
  registeredName: z.string().nullable(),
  nameMatch: z.number().int(),
  /** Below the `accountValidation.nameMatchMin` setting. */
  nameMatchLow: z.boolean(),
});
export type ComparedName = z.infer<typeof comparedName>;

/**
 * RazorpayX's account validation events (https://razorpay.com/docs/webhooks/account-validation/):
 * `fund_account.validation.completed` (bank account and VPA) and `.failed`.
 */
export const RAZORPAYX_VALIDATION_EVENTS = [
  'fund_account.validation.completed',
  'fund_account.validation.failed',
] as const;

/**
 * The part of a RazorpayX `fund_account.validation` entity we read
 * (https://razorpay.com/docs/api/x/account-validation/entity): `status` created/completed/failed;
 * `results` {account_status active/invalid, registered_name}; the composite entity calls it
 * `validation_results` and adds `details` and `name_match_score`
 * (https://razorpay.com/docs/api/x/composite-account-validation/entity); both are read.
 */
const validationResults = z
  .looseObject({
    account_status: z.string().max(20).nullish(),
    registered_name: z.string().max(200).nullish(),
    details: z.string().max(500).nullish(),
    name_match_score: z.union([z.number(), z.string().max(10)]).nullish(),
  })
  .nullish();
export const razorpayxValidationEntity = z.looseObject({
  id: z.string().min(1).max(40),
  entity: z.literal('fund_account.validation').optional(),
  status: z.string().max(20),
  fund_account: z.looseObject({ id: z.string().max(40).optional() }).nullish(),
  amount: z.number().int().nonnegative().nullish(),
  currency: z.string().nullish(),
  notes: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
  results: validationResults,
  validation_results: validationResults,
  status_details: razorpayxStatusDetails,
  utr: z.string().max(100).nullish(),
});
export type RazorpayxValidationEntity = z.infer<typeof razorpayxValidationEntity>;

const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'shri',
  'sri',
  'shree',
  'smt',
  'kumari',
  'km',
  'kum',
  'master',
  'prof',
  'late',
]);

/** A name's words: lower-cased, without punctuation or honorifics ("Mr. R.K. Sharma" → r, k, sharma). */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((word) => word && !HONORIFICS.has(word));
}

/** A key equal for names that differ only in case, punctuation, honorifics and word order. */
export const nameKey = (name: string) => [...nameWords(name)].sort().join(' ');

/**
 * How well two names match, 0-100, whatever their case, honorifics, punctuation and word order: each
 * word of the shorter name is paired with a distinct word of the longer one, fully when equal, and an
 * initial ("K") with a word it begins; the score is the paired weight over the longer name's words.
 */
export function nameMatchScore(a: string, b: string): number {
  const x = nameWords(a);
  const y = nameWords(b);
  if (x.length === 0 || y.length === 0) return 0;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  const free = [...long];
  let matched = 0;
  // Whole words first, so an initial never takes the word a full match needs.
  const rest: string[] = [];
  for (const word of short) {
    const at = free.indexOf(word);
    if (at >= 0) {
      free.splice(at, 1);
      matched += 1;
    } else rest.push(word);
  }
  for (const word of rest) {
    const at = free.findIndex(
      (other) => (word.length === 1 && other.startsWith(word)) || (other.length === 1 && word.startsWith(other)),
    );
    if (at >= 0) {
      free.splice(at, 1);
      matched += 0.75;
    }
  }
  return Math.round((matched / long.length) * 100);
}

/**
 * The operators' account checks (docs/decisions/account-checks-by-operators.md): where RazorpayX cannot
 * validate (a current account, test mode, `RAZORPAYX_ACCOUNT_VALIDATION=off`, a validation it refuses)
 * or a check stays under way past `ACCOUNT_CHECK_DEADLINE_MINUTES`, the number waits for an operator.
 */
export const ACCOUNT_CHECK_DEADLINE_MINUTES = 30;
/** Why a number is in the operators' queue. */
export const ACCOUNT_CHECK_CAUSES = ['unavailable', 'disabled', 'overdue'] as const;
export type AccountCheckCause = (typeof ACCOUNT_CHECK_CAUSES)[number];
export const ACCOUNT_CHECK_NOTE_MAX = 500;

/** Risk signals shown beside a number in the queue, each a catalogue key (translated in the console). */
export const ACCOUNT_CHECK_SIGNALS = {
  /** Another user keeps an account with this number. */
  shared_number: 'account_check_signal_shared_number',
  /** An owner's device was also used to register or log in to another user. */
  shared_device: 'account_check_signal_shared_device',
  /** An owner registered less than `risk.quickWithdrawalHours` before binding it. */
  new_user: 'account_check_signal_new_user',
  /** The name typed for it is far from the names on the owner's other accounts. */
  name_differs: 'account_check_signal_name_differs',
} as const satisfies Record<string, MessageKey>;
export type AccountCheckSignal = keyof typeof ACCOUNT_CHECK_SIGNALS;

/** One owner of the number (usually one). */
const accountCheckOwner = z.object({
  userId: z.number().int(),
  username: z.string(),
  registeredAt: z.string(),
  /** Rupees: the wallet balance and what waits in withdrawals to this number (pending or approved). */
  balance: z.string(),
  waiting: z.string(),
});

/** One number in the operators' queue: enough to check it against the user's documents, no more. */
export const accountCheckItem = z.object({
  id: z.number().int(),
  accountType: z.enum(['upi', 'bank']),
  accountName: z.string(),
  /** Bank accounts: the IFSC and the bank it belongs to (null when the bank code is not known). */
  ifsc: z.string(),
  bankName: z.string().nullable(),
  /** Bank: `••••3456`; UPI: the whole UPI id (its handle names the bank, and a VPA is not a secret). */
  accountNoShown: z.string(),
  cause: z.enum(ACCOUNT_CHECK_CAUSES),
  /** The gateway's words when it refused to check (unavailable), for the operator. */
  gatewayNote: z.string().nullable(),
  queuedAt: z.string(),
  owners: z.array(accountCheckOwner),
  signals: z.array(z.enum(Object.values(ACCOUNT_CHECK_SIGNALS) as [MessageKey, ...MessageKey[]])),
  /** Two approvals are needed: what is at stake (balances and waiting withdrawals) is above `secondApprovalAbove`. */
  approvalsRequired: z.number().int(),
  firstApproverId: z.number().int().nullable(),
});
export type AccountCheckItem = z.infer<typeof accountCheckItem>;

export const accountCheckDecisionBody = z
  .object({
    id: z.coerce
      .number({ error: 'account_check_not_found' })
      .int('account_check_not_found')
      .positive('account_check_not_found'),
    action: z.enum(['approve', 'refuse'], { error: 'validation_failed' }),
    /** Refusals only: the reason the user reads in their language. */
    reason: z.enum(ACCOUNT_CHECK_REFUSALS, { error: 'account_check_reason_required' }).optional(),
    /** What the operator checked (audited; not shown to the user). */
    note: z.string({ error: 'validation_failed' }).trim().max(ACCOUNT_CHECK_NOTE_MAX, 'validation_failed').default(''),
  })
  .superRefine((value, ctx) => {
    if (value.action === 'refuse' && !value.reason) {
      ctx.addIssue({ code: 'custom', message: 'account_check_reason_required', path: ['reason'] });
    }
  });
export type AccountCheckDecision = z.output<typeof accountCheckDecisionBody>;

export const accountCheckRoutes = {
  adminAccountChecks: {
    ...endpoints.adminAccountChecks,
    policy: 'admin',
    roles: STAFF,
    summary: 'Payout account numbers waiting for an operator (no bank check available, or one overdue), oldest first',
    tag: 'payout-accounts',
    query: pageQuery,
    data: pageOf(accountCheckItem),
  },
  adminAccountCheckDecide: {
    ...endpoints.adminAccountCheckDecide,
    policy: 'admin',
    roles: STAFF,
    summary:
      'Approves or refuses (with a reason) a payout account number; above the four-eyes threshold two different operators must approve; audited',
    tag: 'payout-accounts',
    body: accountCheckDecisionBody,
    data: z.object({ id: z.number().int(), state: z.enum(['queued', 'approved', 'refused']) }),
    ok: 'account_check_decided',
  },
} as const satisfies Record<string, RouteDef>;
