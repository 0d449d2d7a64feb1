import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants';
import { hasBidiControl, normalizeUsername, OTP_RE, usernameProblem } from './formats';

export * from './formats';

/** A phone number or e-mail address as typed: an e-mail address is at most 254 characters (RFC 5321). */
export const USERNAME_INPUT_MAX = 254;

export const usernameField = z
  .string({ error: 'enter_phone_or_email' })
  .max(USERNAME_INPUT_MAX, 'target_invalid')
  .superRefine((value, ctx) => {
    const problem = usernameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => normalizeUsername(value) ?? value);

export const passwordField = z
  .string({ error: 'enter_password' })
  .min(1, 'enter_password')
  .min(PASSWORD_MIN, 'password_length')
  .max(PASSWORD_MAX, 'password_length');

export const newPasswordField = z
  .string({ error: 'enter_new_password' })
  .min(1, 'enter_new_password')
  .min(PASSWORD_MIN, 'password_length')
  .max(PASSWORD_MAX, 'password_length');

export const verifyCodeField = z
  .string({ error: 'enter_verification_code' })
  .trim()
  .min(1, 'enter_verification_code')
  .max(16, 'verification_code_format')
  .regex(OTP_RE, 'verification_code_format');

/** The confirmation of a new password: only compared with it, but bounded like it. */
export const confirmPasswordField = z
  .string({ error: 'confirm_your_password' })
  .min(1, 'confirm_your_password')
  .max(PASSWORD_MAX, 'passwords_do_not_match');

/** The instants the API takes (1970 up to the year 10000): PostgreSQL and JavaScript both hold every one of them. */
export const INSTANT_MIN_MS = Date.UTC(1970, 0, 1);
export const INSTANT_MAX_MS = Date.UTC(10000, 0, 1);

/** An ISO date or date-time inside [INSTANT_MIN_MS, INSTANT_MAX_MS); year 0000 or 0001 is a typo or a probe. */
export function isSaneInstant(text: string): boolean {
  const at = Date.parse(text);
  return at >= INSTANT_MIN_MS && at < INSTANT_MAX_MS;
}

/** An optional ISO date-time with its offset, inside the sane range; null clears it. */
export const isoTimeField = z.iso
  .datetime({ offset: true, error: 'validation_failed' })
  .max(40, 'validation_failed')
  .refine(isSaneInstant, 'validation_failed')
  .nullable()
  .optional();

/** Every string inside `value` (objects, arrays, records) with its path. */
function* stringsIn(value: unknown, path: PropertyKey[] = []): Generator<[PropertyKey[], string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* stringsIn(item, [...path, i]);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) yield* stringsIn(item, [...path, key]);
  }
}

/**
 * Text that cannot lie (docs/decisions/text-that-cannot-lie.md): the body of a route that stores what a
 * user or an operator wrote (names, links, notices, tasks, proofs, reasons, pages) is refused, field by
 * field, when any of its strings holds a bidirectional control (`BIDI_CONTROL_RE`). One refinement for
 * every such schema, so a field added later is covered too; not for bodies that carry a password.
 */
export function refuseBidi<T extends z.ZodType>(schema: T): T {
  const refined = schema.superRefine((value, ctx) => {
    for (const [path, text] of stringsIn(value)) {
      if (hasBidiControl(text))
        ctx.addIssue({ code: 'custom', message: 'text_bidi_control', path: path as (string | number)[] });
    }
  }) as T;
  BIDI_REFUSING.add(refined);
  return refined;
}

/** The schemas `refuseBidi` made: their routes document `text_bidi_control` (route-errors.ts). */
export const BIDI_REFUSING = new WeakSet<z.ZodType>();
