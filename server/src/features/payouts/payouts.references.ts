import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/client';
import { putSettingOnce } from '../../platform/settings.queries';

/** The settings key of the installation's generated prefix. */
export const REFERENCE_PREFIX_SETTING = 'payout_reference_prefix';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random lowercase letters and digits. */
function randomWord(length: number): string {
  const bytes = randomBytes(length * 2);
  let word = '';
  // 252 = 7 × 36: bytes above it are skipped, so every character is equally likely.
  for (const byte of bytes) {
    if (byte < 252) word += ALPHABET[byte % 36];
    if (word.length === length) return word;
  }
  return word + randomWord(length - word.length);
}

/**
 * The installation's payout reference prefix: PAYOUT_REFERENCE_PREFIX, else 6 random letters and digits
 * generated on the first start and kept in settings (so restarts, other instances and a restore of this
 * database read the same one; another installation generates its own).
 */
export async function referencePrefix(db: Executor, given: string | undefined): Promise<string> {
  if (given) return given;
  return putSettingOnce(db, REFERENCE_PREFIX_SETTING, randomWord(6));
}

/**
 * A withdrawal's payout reference: `<prefix>-<id>-<8 random>`. The prefix tells installations apart; the
 * random part tells apart withdrawal ids used again (a restore from an older backup, or a database
 * cloned into staging). At most 10 + 1 + 15 + 1 + 8 = 35 characters of letters, digits and `-`: within
 * RazorpayX's 40 for `reference_id` (https://razorpay.com/docs/api/x/payouts/create/vpa) and its 4-36 of
 * letters, digits, `-`, `_` and space for `X-Payout-Idempotency`
 * (https://razorpay.com/docs/api/x/payout-idempotency/make-request), so one string serves as both.
 */
export function newPayoutReference(prefix: string, withdrawalId: number) {
  return `${prefix}-${withdrawalId}-${randomWord(8)}`;
}

/** Whether a `reference_id` is one this installation makes (its prefix, then the id and the random part). */
export function isOurReference(prefix: string, reference: string | null | undefined) {
  return typeof reference === 'string' && new RegExp(`^${prefix}-\\d{1,15}-[a-z0-9]{8}$`).test(reference);
}
