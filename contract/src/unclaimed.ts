import { z } from 'zod';
import { endpoints } from './endpoints';
import { pageOf, pageQuery } from './pagination';
import { PAYOUT_GATEWAYS } from './payouts';
import { type RouteDef, STAFF } from './route-def';
import { refuseBidi } from './validation';

/**
 * Money that came back for a deleted account (docs/decisions/unclaimed-money.md): `reversal`, a paid
 * payout the bank returned; `refund`, a withdrawal's hold that went back. It is posted to the
 * `platform_unclaimed` account, never to the frozen wallet, and waits for an operator.
 */
export const UNCLAIMED_KINDS = ['reversal', 'refund'] as const;
export type UnclaimedKind = (typeof UNCLAIMED_KINDS)[number];
export const UNCLAIMED_NOTE_MAX = 500;

export const unclaimedMoneyItem = z.object({
  id: z.number().int(),
  /** The deleted account: its id and the name it keeps (`deleted-<id>`). */
  userId: z.number().int(),
  username: z.string(),
  withdrawalId: z.number().int(),
  /** The payout account as the withdrawal keeps it after the deletion (its last four digits). */
  accountNo: z.string(),
  gateway: z.enum(PAYOUT_GATEWAYS).nullable(),
  /** The gateway's payout id and the bank reference, when known. */
  payoutId: z.string().nullable(),
  reference: z.string().nullable(),
  kind: z.enum(UNCLAIMED_KINDS),
  /** Rupees. */
  amount: z.string(),
  /** The gateway's words about the return. */
  reason: z.string().nullable(),
  /** The posting that moved the money into `platform_unclaimed`. */
  postingId: z.number().int(),
  createdAt: z.string(),
  handled: z.boolean(),
  handledBy: z.number().int().nullable(),
  handledAt: z.string().nullable(),
  note: z.string().nullable(),
});
export type UnclaimedMoneyItem = z.infer<typeof unclaimedMoneyItem>;

/** A page of the queue and how many items wait for an operator (the console's menu count). */
export const unclaimedMoneyPage = pageOf(unclaimedMoneyItem).extend({ open: z.number().int() });
export type UnclaimedMoneyPage = z.infer<typeof unclaimedMoneyPage>;

export const adminUnclaimedQuery = pageQuery.extend({
  /** Left out: all; `false`: the open ones. */
  handled: z
    .enum(['true', 'false'], { error: 'validation_failed' })
    .transform((v) => v === 'true')
    .optional(),
});

export const adminUnclaimedHandleBody = z.object({
  id: z.coerce.number({ error: 'unclaimed_not_found' }).int('unclaimed_not_found').positive('unclaimed_not_found'),
  /** What was done with the money (returned to the person's bank after checking who they are, kept as unclaimed, ...). */
  note: z
    .string({ error: 'enter_unclaimed_note' })
    .trim()
    .min(1, 'enter_unclaimed_note')
    .max(UNCLAIMED_NOTE_MAX, 'validation_failed'),
});

export const unclaimedRoutes = {
  adminUnclaimedList: {
    ...endpoints.adminUnclaimedList,
    policy: 'admin',
    roles: STAFF,
    summary:
      'Money that came back for deleted accounts (in the platform_unclaimed account), newest first, with the number still open',
    tag: 'withdrawals',
    query: adminUnclaimedQuery,
    data: unclaimedMoneyPage,
  },
  adminUnclaimedHandle: {
    ...endpoints.adminUnclaimedHandle,
    policy: 'admin',
    summary: 'Marks unclaimed money handled with a note of what was done; the money stays where it is. Audited',
    tag: 'withdrawals',
    body: refuseBidi(adminUnclaimedHandleBody),
    data: unclaimedMoneyItem,
    ok: 'unclaimed_handled',
  },
} as const satisfies Record<string, RouteDef>;
