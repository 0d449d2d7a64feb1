import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants';
import { normalizeUsername, OTP_RE, usernameProblem } from './formats';

export * from './formats';

export const usernameField = z
  .string({ error: 'enter_phone_or_email' })
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
  .regex(OTP_RE, 'verification_code_format');

/** The instants the API takes (1970 up to the year 10000): PostgreSQL and JavaScript both hold every one of them. */
export const INSTANT_MIN_MS = Date.UTC(1970, 0, 1);
export const INSTANT_MAX_MS = Date.UTC(10000, 0, 1);

/** An ISO date or date-time inside [INSTANT_MIN_MS, INSTANT_MAX_MS); year 0000 or 0001 is a typo or a probe. */
export function isSaneInstant(text: string): boolean {
  const at = Date.parse(text);
  return at >= INSTANT_MIN_MS && at < INSTANT_MAX_MS;
}
