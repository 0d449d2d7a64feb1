import { z } from 'zod';
import { endpoints } from './endpoints';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';

/** Basis points: 10000 = 100 %. */
export const BPS_MAX = 10_000;

export const inviteItem = z.object({
  id: z.number().int(),
  /** Masked: "+91 98•••••210", "as•••@example.com". */
  username: z.string(),
  joinedAt: z.string(),
  /** What the caller has earned in level-1 rebates from this invitee, in rupees. */
  rebateEarned: z.string(),
});
export const invitePage = pageOf(inviteItem).extend({
  totals: z.object({
    /** Every invitee, as the list shows them. */
    count: z.number().int(),
    rebateEarned: z.string(),
    /** Of them, the ones who count as friends for tasks (the `risk` settings' `qualifiedInvite` rule). */
    qualified: z.number().int(),
  }),
});
export type InviteItem = z.infer<typeof inviteItem>;

const bps = z.coerce
  .number({ error: 'rebate_bps_range' })
  .int('rebate_bps_range')
  .min(0, 'rebate_bps_range')
  .max(BPS_MAX, 'rebate_bps_range');
export const rebateSettings = z.object({ level1Bps: bps, level2Bps: bps });
export type RebateSettings = z.infer<typeof rebateSettings>;

export const referralRoutes = {
  inviteList: {
    ...endpoints.inviteList,
    policy: 'user',
    summary: "The caller's invitees, newest first, with the rebate earned from each and totals",
    tag: 'referrals',
    query: pageQuery,
    data: invitePage,
  },
  adminRebateGet: {
    ...endpoints.adminRebateGet,
    policy: 'admin',
    roles: STAFF,
    summary: 'Rebate rates for the inviter (level 1) and their inviter (level 2), in basis points',
    tag: 'admin',
    data: rebateSettings,
  },
  adminRebateSet: {
    ...endpoints.adminRebateSet,
    policy: 'admin',
    summary: 'Sets the rebate rates (0-10000 basis points each)',
    tag: 'admin',
    body: rebateSettings,
    data: rebateSettings,
  },
} as const satisfies Record<string, RouteDef>;
