import { z } from 'zod';
import { endpoints } from './endpoints';
import { rupeeAmountField } from './money';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { introData, introSetBody } from './survey';
import { refuseBidi } from './validation';
import { POSTING_TYPES, postingRef } from './wallet';
import { idempotencyKeyHeaders } from './withdrawals';

export const CREDIT_USER_TEXT_MAX = 200;

/**
 * A manual credit. `remark` is the internal note (staff only: audit, console, credit requests);
 * `userText` is what the user's income record shows, and without it the record shows a translated
 * generic label, so an internal note never reaches the user.
 */
export const revenueAddBody = z.object({
  userId: z.coerce.number({ error: 'validation_failed' }).int().positive(),
  amount: rupeeAmountField,
  remark: z.string({ error: 'enter_remark' }).trim().min(1, 'enter_remark').max(200, 'validation_failed'),
  userText: z
    .string({ error: 'validation_failed' })
    .trim()
    .max(CREDIT_USER_TEXT_MAX, 'validation_failed')
    .optional()
    .transform((v) => v || undefined),
});

/** A credit above the `risk` settings' `creditApprovalAbove` waits for a second admin (four-eyes). */
export const CREDIT_REQUEST_STATES = ['pending', 'approved', 'rejected'] as const;
export type CreditRequestState = (typeof CREDIT_REQUEST_STATES)[number];

export const revenueAddData = z.object({
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

export const revenueRoutes = {
  adminRevenueAdd: {
    ...endpoints.adminRevenueAdd,
    policy: 'admin',
    summary:
      "Credits a user's wallet with a remark (compensation: no rebate to anyone); never one's own; above the risk settings' threshold it waits for a second admin; audited",
    tag: 'admin',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(revenueAddBody),
    data: revenueAddData,
  },
  adminCreditRequestList: {
    ...endpoints.adminCreditRequestList,
    policy: 'admin',
    summary: 'Credits waiting for (or decided by) a second admin, newest first',
    tag: 'admin',
    query: adminCreditRequestQuery,
    data: pageOf(creditRequestItem),
  },
  adminCreditReview: {
    ...endpoints.adminCreditReview,
    policy: 'admin',
    summary: 'A second admin approves (the credit is posted) or rejects a waiting credit; audited',
    tag: 'admin',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(adminCreditReviewBody),
    data: creditRequestItem,
  },
  adminBalanceList: {
    ...endpoints.adminBalanceList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Every wallet movement, newest first, filterable by user and type',
    tag: 'admin',
    query: adminBalanceQuery,
    data: pageOf(adminBalanceItem),
  },
  adminIntroGet: {
    ...endpoints.adminIntroGet,
    policy: 'admin',
    roles: STAFF,
    summary: "The introduction's settings",
    tag: 'admin',
    data: introData,
  },
  adminIntroSet: {
    ...endpoints.adminIntroSet,
    policy: 'admin',
    summary: "Changes the introduction's facts and video URL",
    tag: 'admin',
    body: refuseBidi(introSetBody),
    data: introData,
  },
} as const satisfies Record<string, RouteDef>;
