import { z } from 'zod';
import type { MessageKey } from './catalogue';
import { endpoints } from './endpoints';
import type { Locale } from './locales';
import { translate } from './messages';
import { rupeeAmountField } from './money';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { introData, introSetBody } from './survey';
import { refuseBidi } from './validation';
import { POSTING_TYPES, postingRef } from './wallet';
import { idempotencyKeyHeaders } from './withdrawals';

export const CREDIT_USER_TEXT_MAX = 200;

/**
 * What a manual credit tells the user, picked by the operator: each has a catalogue text in every
 * locale, so the user reads it in their own language; the operator's own words (`userText`) may follow.
 */
export const CREDIT_TEXT_PRESETS = [
  'withdrawal_delay',
  'balance_correction',
  'fee_refund',
  'task_reward',
  'complaint_resolution',
  'goodwill',
] as const;
export type CreditTextPreset = (typeof CREDIT_TEXT_PRESETS)[number];

export const CREDIT_TEXT_PRESET_TEXT = {
  withdrawal_delay: 'credit_preset_withdrawal_delay',
  balance_correction: 'credit_preset_balance_correction',
  fee_refund: 'credit_preset_fee_refund',
  task_reward: 'credit_preset_task_reward',
  complaint_resolution: 'credit_preset_complaint_resolution',
  goodwill: 'credit_preset_goodwill',
} as const satisfies Record<CreditTextPreset, MessageKey>;

/**
 * How a credit's user text is stored (the posting's `ref.remark`, a credit request's `user_text`):
 * `preset:<code>`, then a newline and the operator's words if any; text without the prefix is the
 * operator's words alone (as reject reasons are stored, contract/src/reject-reasons.ts).
 */
const PREFIX = 'preset:';

export function encodeCreditText(preset: CreditTextPreset | undefined, words: string | undefined): string | undefined {
  if (!preset) return words || undefined;
  return words ? `${PREFIX}${preset}\n${words}` : `${PREFIX}${preset}`;
}

export function decodeCreditText(stored: string): { preset: CreditTextPreset | null; words: string } {
  if (!stored.startsWith(PREFIX)) return { preset: null, words: stored };
  const newline = stored.indexOf('\n');
  const code = stored.slice(PREFIX.length, newline === -1 ? undefined : newline);
  const preset = (CREDIT_TEXT_PRESETS as readonly string[]).includes(code) ? (code as CreditTextPreset) : null;
  return preset ? { preset, words: newline === -1 ? '' : stored.slice(newline + 1) } : { preset: null, words: stored };
}

/** A credit's user text as a reader of `locale` sees it: the preset in their language, then the words if any. */
export function creditTextIn(stored: string, locale: Locale): string {
  const { preset, words } = decodeCreditText(stored);
  if (!preset) return words;
  const text = translate(locale, CREDIT_TEXT_PRESET_TEXT[preset]);
  return words ? `${text} (${words})` : text;
}

/**
 * A manual credit. `remark` is the internal note (staff only: audit, console, credit requests);
 * `userText` is what the user's income record shows, and without it the record shows a translated
 * generic label, so an internal note never reaches the user.
 */
export const creditAddBody = z.object({
  userId: z.coerce.number({ error: 'validation_failed' }).int().positive(),
  amount: rupeeAmountField,
  remark: z.string({ error: 'enter_remark' }).trim().min(1, 'enter_remark').max(200, 'validation_failed'),
  userText: z
    .string({ error: 'validation_failed' })
    .trim()
    .max(CREDIT_USER_TEXT_MAX, 'validation_failed')
    .optional()
    .transform((v) => v || undefined),
  /** What the user's income record says, in the user's language; `userText` may add the operator's words. */
  userPreset: z.enum(CREDIT_TEXT_PRESETS, { error: 'validation_failed' }).optional(),
});

/** A credit above the `risk` settings' `creditApprovalAbove` waits for a second admin (four-eyes). */
export const CREDIT_REQUEST_STATES = ['pending', 'approved', 'rejected'] as const;
export type CreditRequestState = (typeof CREDIT_REQUEST_STATES)[number];

export const creditAddData = z.object({
  /** The credit's posting; null while it waits for a second admin's approval. */
  postingId: z.number().int().nullable(),
  /** The user's balance after the credit (or now, while it waits). */
  balance: z.string(),
  /** Set when the credit waits for a second admin's approval. */
  creditRequest: z.object({ id: z.number().int(), state: z.enum(CREDIT_REQUEST_STATES) }).nullable(),
});

export const creditRequestItem = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  amount: z.string(),
  /** Internal note (staff only). */
  remark: z.string(),
  /** What the user's income record will show; null: the generic label. */
  userText: z.string().nullable(),
  state: z.enum(CREDIT_REQUEST_STATES),
  requestedBy: z.number().int(),
  requestedByName: z.string(),
  requestedAt: z.string(),
  decidedBy: z.number().int().nullable(),
  decidedAt: z.string().nullable(),
  /** Why it was rejected. */
  reason: z.string().nullable(),
  postingId: z.number().int().nullable(),
});
export type CreditRequestItem = z.infer<typeof creditRequestItem>;

export const adminCreditRequestQuery = pageQuery.extend({
  state: z.enum(CREDIT_REQUEST_STATES, { error: 'validation_failed' }).optional(),
});

export const adminCreditReviewBody = z
  .object({
    id: z.coerce
      .number({ error: 'credit_request_not_found' })
      .int('credit_request_not_found')
      .positive('credit_request_not_found'),
    action: z.enum(['approve', 'reject'], { error: 'validation_failed' }),
    reason: z.string({ error: 'enter_reject_reason' }).trim().max(200, 'validation_failed').default(''),
  })
  .refine((body) => body.action !== 'reject' || body.reason !== '', {
    message: 'enter_reject_reason',
    path: ['reason'],
  });

export const adminBalanceQuery = pageQuery.extend({
  userId: z.coerce.number().int().positive().optional(),
  type: z.enum(POSTING_TYPES).optional(),
});

export const adminBalanceItem = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  type: z.enum(POSTING_TYPES),
  amount: z.string(),
  balanceAfter: z.string(),
  createdAt: z.string(),
  ref: postingRef,
});

export const creditRoutes = {
  adminCreditAdd: {
    ...endpoints.adminCreditAdd,
    policy: 'admin',
    summary:
      "Credits a user's wallet with a remark (compensation: no rebate to anyone); never one's own; above the risk settings' threshold it waits for a second admin; audited",
    tag: 'credits',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(creditAddBody),
    data: creditAddData,
  },
  adminCreditRequestList: {
    ...endpoints.adminCreditRequestList,
    policy: 'admin',
    summary: 'Credits waiting for (or decided by) a second admin, newest first',
    tag: 'credits',
    query: adminCreditRequestQuery,
    data: pageOf(creditRequestItem),
  },
  adminCreditReview: {
    ...endpoints.adminCreditReview,
    policy: 'admin',
    summary: 'A second admin approves (the credit is posted) or rejects a waiting credit; audited',
    tag: 'credits',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(adminCreditReviewBody),
    data: creditRequestItem,
  },
  adminBalanceList: {
    ...endpoints.adminBalanceList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Every wallet movement, newest first, filterable by user and type',
    tag: 'credits',
    query: adminBalanceQuery,
    data: pageOf(adminBalanceItem),
  },
  adminIntroGet: {
    ...endpoints.adminIntroGet,
    policy: 'admin',
    roles: STAFF,
    summary: "The introduction's settings",
    tag: 'intro',
    data: introData,
  },
  adminIntroSet: {
    ...endpoints.adminIntroSet,
    policy: 'admin',
    summary: "Changes the introduction's facts and video URL",
    tag: 'intro',
    body: refuseBidi(introSetBody),
    data: introData,
  },
} as const satisfies Record<string, RouteDef>;
