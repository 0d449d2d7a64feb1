import { z } from 'zod';
import { endpoints } from './endpoints';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { refuseBidi } from './validation';

/**
 * Dual control (docs/decisions/dual-control.md): a change that weakens a control is proposed by one
 * admin and applied by another. The kinds: the settings page (risk thresholds and weights, withdrawal
 * fees and limits, payout account checks), the rebate rates and hold, a role change, and lifting the
 * freeze of a staff account, and the linked-account hourly rate.
 */
export const CONTROL_CHANGE_KINDS = ['settings', 'rebate', 'role', 'unfreeze', 'linked_rate'] as const;
export type ControlChangeKind = (typeof CONTROL_CHANGE_KINDS)[number];
export const CONTROL_CHANGE_STATES = ['pending', 'applied', 'cancelled', 'expired'] as const;
export type ControlChangeState = (typeof CONTROL_CHANGE_STATES)[number];
/** A proposal nobody applied within this many hours expires. */
export const CONTROL_CHANGE_TTL_HOURS = 48;
/** With no other active admin, the proposer may apply their own change this many hours after proposing it. */
export const CONTROL_SINGLE_ADMIN_DELAY_HOURS = 24;

/** What a route that proposes instead of applying answers beside its usual data (null: applied at once). */
export const controlChangeRef = z.object({
  id: z.number().int(),
  state: z.enum(CONTROL_CHANGE_STATES),
  expiresAt: z.string(),
  /** Equal to the proposal time unless the proposer was the only active admin (then 24 h later). */
  earliestApplyAt: z.string(),
});
export type ControlChangeRef = z.infer<typeof controlChangeRef>;

/** One changed field: its dotted name (`risk.secondApprovalAbove`) and the value before and after, as text. */
export const controlChangeField = z.object({ field: z.string(), from: z.string(), to: z.string() });

export const controlChangeItem = controlChangeRef.extend({
  kind: z.enum(CONTROL_CHANGE_KINDS),
  /** `setting:<key>` or `user:<id>`. */
  target: z.string(),
  /** The account a role or unfreeze change is about. */
  targetName: z.string().nullable(),
  fields: z.array(controlChangeField),
  proposedBy: z.number().int(),
  proposedByName: z.string(),
  createdAt: z.string(),
  /** True when proposed by the only active admin: the proposer may apply it after `earliestApplyAt`. */
  singleAdmin: z.boolean(),
  decidedBy: z.number().int().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type ControlChangeItem = z.infer<typeof controlChangeItem>;

export const adminControlQuery = pageQuery.extend({
  state: z.enum(CONTROL_CHANGE_STATES, { error: 'validation_failed' }).optional(),
});

const changeId = z.coerce
  .number({ error: 'control_change_not_found' })
  .int('control_change_not_found')
  .positive('control_change_not_found');
export const adminControlDecideBody = z.object({ id: changeId });

export const controlRoutes = {
  adminControlList: {
    ...endpoints.adminControlList,
    policy: 'admin',
    roles: STAFF,
    summary:
      'Proposed control changes, newest first; `pending` also counts them and says whether one waits for the single-admin delay',
    tag: 'control',
    query: adminControlQuery,
    data: pageOf(controlChangeItem).extend({
      pending: z.number().int(),
      /** The earliest time a pending single-admin change may be applied by its proposer, if any is pending. */
      delayedUntil: z.string().nullable(),
    }),
  },
  adminControlApply: {
    ...endpoints.adminControlApply,
    policy: 'admin',
    summary:
      'A second admin applies a proposed change (the proposer only after the single-admin delay); refused when stale or expired; audited',
    tag: 'control',
    body: refuseBidi(adminControlDecideBody),
    data: controlChangeItem,
    ok: 'control_change_applied',
  },
  adminControlCancel: {
    ...endpoints.adminControlCancel,
    policy: 'admin',
    summary: 'Any admin cancels a pending proposed change; audited',
    tag: 'control',
    body: refuseBidi(adminControlDecideBody),
    data: controlChangeItem,
    ok: 'control_change_cancelled',
  },
} as const satisfies Record<string, RouteDef>;
