import { z } from 'zod';
import { AMOUNT_TEXT_MAX } from './constants';
import { parseRupees } from './money';

/**
 * Payout account validation (docs/decisions/payout-account-validation.md): the bank's registered name
 * for a bank account (penny drop) or a UPI id (VPA lookup), before money moves.
 */

/** What the owner sees of an account's check: under way, the bank's name, or why it could not be checked. */
export const ACCOUNT_VERIFICATION_STATES = ['verifying', 'verified', 'unverified'] as const;
export type AccountVerificationState = (typeof ACCOUNT_VERIFICATION_STATES)[number];

/** RazorpayX's `status_details` of a payout or a validation: why it is in its state, in words. */
export const razorpayxStatusDetails = z
  .looseObject({
    description: z.string().max(500).nullish(),
    source: z.string().nullish(),
    reason: z.string().nullish(),
  })
  .nullish();

export const accountVerification = z.object({
  state: z.enum(ACCOUNT_VERIFICATION_STATES),
  /** The name the bank holds for the account (verified only); shown to the owner and to staff. */
  registeredName: z.string().nullable(),
  /** Why it could not be verified (unverified only): the bank's or the gateway's words. */
  reason: z.string().nullable(),
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
