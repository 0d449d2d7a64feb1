import { z } from 'zod';
import { OTP_CHANNELS, OTP_TYPE } from './constants';
import {
  confirmPasswordField,
  newPasswordField,
  normalizeUsername,
  passwordField,
  USERNAME_INPUT_MAX,
  usernameField,
  usernameProblem,
  verifyCodeField,
} from './validation';

export const otpSendBody = z.object({
  target: z
    .string({ error: 'enter_phone_or_email' })
    .trim()
    .min(1, 'enter_phone_or_email')
    .max(USERNAME_INPUT_MAX, 'target_invalid')
    .superRefine((value, ctx) => {
      if (normalizeUsername(value)) return;
      // An address that is more than one plain mailbox says so; any other malformed target stays generic.
      const problem =
        usernameProblem(value) === 'email_plain_address_only' ? 'email_plain_address_only' : 'target_invalid';
      ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => normalizeUsername(value) ?? value),
  type: z.literal(OTP_TYPE, { error: 'otp_type_invalid' }).default(OTP_TYPE),
});
export const otpSendData = z.object({ resendAfterSeconds: z.number().int(), expiresInSeconds: z.number().int() });

/** `GET …/otp/channels`: the channels a code may go to (the server's SIGNUP_CHANNELS), never empty. */
export const otpChannelsData = z.object({ channels: z.array(z.enum(OTP_CHANNELS)).min(1) });

const passwordsMatch = (body: { password: string; password2: string }) => body.password === body.password2;
const mismatch = { message: 'passwords_do_not_match', path: ['password2'] };

export const registerBody = z
  .object({
    username: usernameField,
    password: passwordField,
    password2: confirmPasswordField,
    verifyCode: verifyCodeField,
    inviteCode: z.string().trim().max(32).optional().default(''),
  })
  .refine(passwordsMatch, mismatch);

export const loginBody = z.object({
  username: z.string({ error: 'enter_phone_or_email' }).trim().min(1, 'enter_phone_or_email').max(254),
  password: z.string({ error: 'enter_password' }).min(1, 'enter_password').max(128),
});

export const tokenData = z.object({ token: z.string() });

export const resetPassBody = z
  .object({
    username: usernameField,
    verifyCode: verifyCodeField,
    password: newPasswordField,
    password2: confirmPasswordField,
  })
  .refine(passwordsMatch, mismatch);

export const editPasswordBody = z
  .object({
    oldPassword: z.string({ error: 'enter_old_password' }).min(1, 'enter_old_password').max(128),
    password: newPasswordField,
    password2: confirmPasswordField,
  })
  .refine(passwordsMatch, mismatch);

export const ROLES = ['user', 'reviewer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const userDetailData = z.object({
  id: z.number().int(),
  username: z.string(),
  inviteCode: z.string(),
  /** Rupees as a decimal string, e.g. "120.50". */
  balance: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string(),
});

export type OtpSendBody = z.input<typeof otpSendBody>;
export type RegisterBody = z.input<typeof registerBody>;
export type LoginBody = z.input<typeof loginBody>;
export type ResetPassBody = z.input<typeof resetPassBody>;
export type EditPasswordBody = z.input<typeof editPasswordBody>;
export type UserDetail = z.infer<typeof userDetailData>;
