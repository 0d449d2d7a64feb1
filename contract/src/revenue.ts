import { z } from 'zod';
import { endpoints } from './endpoints';
import { rupeeAmountField } from './money';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { introData, introSetBody } from './survey';
import { POSTING_TYPES, postingRef } from './wallet';

export const revenueAddBody = z.object({
  userId: z.coerce.number({ error: 'not_found' }).int().positive(),
  amount: rupeeAmountField,
  remark: z.string({ error: 'enter_remark' }).trim().min(1, 'enter_remark').max(200, 'validation_failed'),
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
    summary: "Credits a user's wallet with a remark (rebates paid to the uplines); audited",
    tag: 'admin',
    body: revenueAddBody,
    data: z.object({ postingId: z.number().int(), balance: z.string() }),
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
    body: introSetBody,
    data: introData,
  },
} as const satisfies Record<string, RouteDef>;
