import { z } from 'zod';
import { REBATE_HOLD_DAYS_MAX } from './constants';
import { controlChangeRef } from './control';
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
  /** What the caller has earned in level-1 rebates from this invitee and may spend (past the hold), in rupees. */
  rebateEarned: z.string(),
  /** Level-1 rebates from this invitee still in their hold (not withdrawable yet), in rupees. */
  rebatePending: z.string(),
});
export const invitePage = pageOf(inviteItem).extend({
  totals: z.object({
    /** Every invitee, as the list shows them. */
    count: z.number().int(),
    /** Rebates (both levels) past their hold, in the wallet. */
    rebateEarned: z.string(),
    /** Rebates (both levels) still in their hold: shown apart, not withdrawable. */
    rebatePending: z.string(),
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
const holdDays = z.coerce
  .number({ error: 'rebate_hold_days_range' })
  .int('rebate_hold_days_range')
  .min(0, 'rebate_hold_days_range')
  .max(REBATE_HOLD_DAYS_MAX, 'rebate_hold_days_range');
/** `holdDays`: how long a rebate stays pending after its task reward (REBATE_HOLD_DAYS_DEFAULT). */
export const rebateSettings = z.object({ level1Bps: bps, level2Bps: bps, holdDays });
export type RebateSettings = z.infer<typeof rebateSettings>;
/** `rebate/set` keeps the hold in force when it is left out. */
export const rebateSetBody = z.object({ level1Bps: bps, level2Bps: bps, holdDays: holdDays.optional() });
export type RebateSetBody = z.infer<typeof rebateSetBody>;

/** An operator found a user to be a duplicate identity: their uplines' pending rebates on them are reversed. */
export const userDuplicateBody = z.object({
  userId: z.coerce.number({ error: 'validation_failed' }).int().positive(),
  reason: z
    .string({ error: 'enter_resolve_reason' })
    .trim()
    .min(1, 'enter_resolve_reason')
    .max(200, 'validation_failed'),
});
export const rebateReversalData = z.object({
  /** How many pending rebates were reversed (both levels). */
  reversed: z.number().int(),
});

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
    tag: 'referrals',
    data: rebateSettings,
  },
  adminRebateSet: {
    ...endpoints.adminRebateSet,
    policy: 'admin',
    summary:
      'Sets the rebate rates (0-10000 basis points each) and the hold of new rebates in days: lower rates and a longer hold apply at once, any other change is proposed for a second admin (`change`)',
    tag: 'referrals',
    body: rebateSetBody,
    data: rebateSettings.extend({ change: controlChangeRef.nullable() }),
  },
  adminUserDuplicate: {
    ...endpoints.adminUserDuplicate,
    policy: 'admin',
    summary:
      "Marks a user as a duplicate identity: no rebates are owed on their rewards any more and their uplines' pending ones are reversed; audited",
    tag: 'referrals',
    body: userDuplicateBody,
    data: rebateReversalData,
    ok: 'user_marked_duplicate',
  },
} as const satisfies Record<string, RouteDef>;
