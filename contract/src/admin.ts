import { z } from 'zod';
import { ROLES } from './auth';
import { endOfBusinessDay, startOfBusinessDay } from './business-day';
import { controlChangeRef } from './control';
import { endpoints } from './endpoints';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { isSaneInstant, newPasswordField } from './validation';
import { balanceItem } from './wallet';

/**
 * One end of a time range: an ISO instant, or a day `YYYY-MM-DD` in India (`from` = its start,
 * `to` = the start of the next day, so the day is included). The range is [from, to).
 */
export function timeBound(side: 'from' | 'to') {
  return z
    .union([z.iso.date().max(10), z.iso.datetime({ offset: true }).max(40)], { error: 'validation_failed' })
    .refine(isSaneInstant, 'validation_failed')
    .transform((text) => {
      if (text.length > 10) return new Date(text);
      return side === 'from' ? startOfBusinessDay(text) : endOfBusinessDay(text);
    });
}

const userId = z.coerce.number({ error: 'validation_failed' }).int('validation_failed').positive('validation_failed');
const money = z.string();

export const adminUserListQuery = pageQuery.extend({
  /** Part of the username, or a whole invite code. */
  q: z.string().trim().max(254, 'validation_failed').optional(),
  role: z.enum(ROLES, { error: 'validation_failed' }).optional(),
  frozen: z
    .enum(['true', 'false'], { error: 'validation_failed' })
    .transform((v) => v === 'true')
    .optional(),
  /** Only the invitees of this user (pages through a large invite tree). */
  inviterId: userId.optional(),
  joinedFrom: timeBound('from').optional(),
  joinedTo: timeBound('to').optional(),
});
export type AdminUserListQuery = z.input<typeof adminUserListQuery>;

export const adminUserRow = z.object({
  id: z.number().int(),
  username: z.string(),
  inviteCode: z.string(),
  role: z.enum(ROLES),
  frozen: z.boolean(),
  /** The user deleted the account: final, no staff action applies (docs/decisions/account-deletion.md). */
  deleted: z.boolean(),
  createdAt: z.string(),
  /** Rupee strings. `hold` is the money moved aside by withdrawals under review or in payment. */
  balance: money,
  hold: money,
  inviter: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  inviteeCount: z.number().int(),
  /** Task rewards, rebates, manual credits and linked-account income ever credited. */
  totalEarned: money,
  /** Withdrawals paid out. */
  totalWithdrawn: money,
});
export type AdminUserRow = z.infer<typeof adminUserRow>;

const treeUser = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(ROLES),
  frozen: z.boolean(),
  createdAt: z.string(),
  inviteeCount: z.number().int(),
});

/** How many of each level the detail shows; the rest is paged with `user/list?inviterId=`. */
export const INVITE_TREE_LEVEL1_MAX = 50;
export const INVITE_TREE_LEVEL2_MAX = 20;
export const ADMIN_DETAIL_MOVEMENTS = 20;

export const adminUserDetailData = z.object({
  user: adminUserRow,
  /** The newest wallet movements; older ones through `admin/balance/list?userId=`. */
  movements: z.array(balanceItem),
  /** Invitees (newest first) and each one's invitees; `count` is the whole level-1 count. */
  inviteTree: z.object({
    count: z.number().int(),
    items: z.array(treeUser.extend({ invitees: z.array(treeUser) })),
  }),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailData>;

export const adminUserFreezeBody = z.object({ userId, frozen: z.boolean({ error: 'validation_failed' }) });
export const adminUserRoleBody = z.object({ userId, role: z.enum(ROLES, { error: 'validation_failed' }) });
export const adminUserResetPassBody = z.object({ userId, password: newPasswordField });

const figure = z.object({ count: z.number().int(), amount: money });

/** Withdrawals as money: the gross amount users asked for, the fees kept, and what goes to the banks. */
const payoutFigure = figure.extend({ fee: money, net: money });

export const dashboardData = z.object({
  /** The business day "today" refers to. */
  day: z.object({ timeZone: z.string(), start: z.string() }),
  /** Accounts with role `user` (staff not counted). */
  users: z.object({ total: z.number().int(), newToday: z.number().int() }),
  /** What the platform owes users: every wallet, and every withdrawal hold; staff accounts left out. */
  balances: z.object({ wallets: money, holds: money }),
  withdrawals: z.object({
    /** Waiting for review: gross, fee and net (null until the withdrawals feature supplies it). */
    pending: payoutFigure.nullable(),
    /** Withdrawals that became paid today and are still paid: `net` is what reached the banks. */
    paidToday: payoutFigure,
  }),
  /** Complaints not closed, and of them those past a deadline (docs/decisions/grievances.md). */
  complaints: z.object({ open: z.number().int(), overdue: z.number().int() }),
  /** `admin/ledger/check` now: invariant problems and business-rule violations; the details at `admin/ledger/check`. */
  ledger: z.object({ ok: z.boolean(), problemCount: z.number().int(), violationCount: z.number().int() }),
});
export type DashboardData = z.infer<typeof dashboardData>;

/** How many days of India's calendar the dashboard's trends cover, today included. */
export const TREND_DAYS = 30;

/** One day in India: what happened on it, counts and rupee strings. */
export const trendDay = z.object({
  /** `YYYY-MM-DD` in India. */
  day: z.string(),
  signUps: z.number().int(),
  /** Withdrawals that entered each state that day (requested = created). */
  requested: figure,
  approved: figure,
  paid: figure,
  failed: figure,
  /** Task rewards and invite rebates credited to users' wallets. */
  rewards: money,
  rebates: money,
  /** Contradictory gateway callbacks opened that day. */
  mismatches: z.number().int(),
});
export type TrendDay = z.infer<typeof trendDay>;

export const dashboardTrendsData = z.object({
  timeZone: z.string(),
  /** TREND_DAYS days, oldest first, the last one today; days with nothing are there with zeros. */
  days: z.array(trendDay),
});
export type DashboardTrends = z.infer<typeof dashboardTrendsData>;

export const exportQuery = z.object({ from: timeBound('from').optional(), to: timeBound('to').optional() });
export type ExportQuery = z.input<typeof exportQuery>;

/** Columns of the CSV downloads; amounts are rupee strings, times ISO 8601 UTC. */
export const USER_EXPORT_COLUMNS = [
  'id',
  'username',
  'invite_code',
  'role',
  'frozen',
  'inviter_id',
  'created_at',
  'balance',
  'hold',
] as const;
export const MOVEMENT_EXPORT_COLUMNS = [
  'entry_id',
  'created_at',
  'user_id',
  'username',
  'account',
  'type',
  'amount',
  'balance_after',
  'posting_id',
  'ref',
] as const;
export const WITHDRAWAL_EXPORT_COLUMNS = [
  'id',
  'created_at',
  'user_id',
  'username',
  'state',
  'amount',
  'account_type',
  'ifsc',
  'account_no',
  'account_name',
  'reason',
  'reference',
  'reviewer_id',
  'reviewed_at',
  'finished_at',
] as const;

const csvText = z.string().describe('text/csv; header row, then one row per record');

export const adminRoutes = {
  adminUserList: {
    ...endpoints.adminUserList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Users, newest first (keyset pages): search by username or invite code, filter by role, frozen, joined',
    tag: 'admin',
    query: adminUserListQuery,
    data: pageOf(adminUserRow),
  },
  adminUserDetail: {
    ...endpoints.adminUserDetail,
    policy: 'admin',
    roles: STAFF,
    summary: 'One user with figures, newest wallet movements and the invite tree (two levels)',
    tag: 'admin',
    query: z.object({ id: userId }),
    data: adminUserDetailData,
  },
  adminUserFreeze: {
    ...endpoints.adminUserFreeze,
    policy: 'admin',
    summary:
      'Freezes or unfreezes a user (a frozen user cannot withdraw; frozen staff lose the console); unfreezing staff is proposed for a second admin (`change`); audited',
    tag: 'admin',
    body: adminUserFreezeBody,
    data: adminUserRow.extend({ change: controlChangeRef.nullable() }),
  },
  adminUserRole: {
    ...endpoints.adminUserRole,
    policy: 'admin',
    summary:
      "Proposes a user's new role (user, reviewer, admin) for a second admin to apply (`change`); not one's own; audited",
    tag: 'admin',
    body: adminUserRoleBody,
    data: adminUserRow.extend({ change: controlChangeRef.nullable() }),
  },
  adminUserResetPassword: {
    ...endpoints.adminUserResetPassword,
    policy: 'admin',
    summary:
      "Sets a user's password and ends all their sessions; not one's own nor a staff account's (staff reset theirs by one-time code); audited",
    tag: 'admin',
    body: adminUserResetPassBody,
    data: z.object({ sessionsEnded: z.number().int() }),
    ok: 'user_password_reset',
  },
  adminDashboard: {
    ...endpoints.adminDashboard,
    policy: 'admin',
    roles: STAFF,
    summary: 'Users, balances held, withdrawals and the ledger check at a glance',
    tag: 'admin',
    data: dashboardData,
  },
  adminDashboardTrends: {
    ...endpoints.adminDashboardTrends,
    policy: 'admin',
    roles: STAFF,
    summary:
      "The last 30 days by India's calendar day: sign-ups, withdrawals requested, approved, paid and failed, rewards and rebates credited, payout mismatches",
    tag: 'admin',
    data: dashboardTrendsData,
  },
  adminExportUsers: {
    ...endpoints.adminExportUsers,
    policy: 'admin',
    summary: 'CSV of the users who joined in [from, to), oldest first, streamed',
    tag: 'admin',
    query: exportQuery,
    data: csvText,
  },
  adminExportMovements: {
    ...endpoints.adminExportMovements,
    policy: 'admin',
    summary: "CSV of every movement of users' accounts in [from, to), oldest first, streamed",
    tag: 'admin',
    query: exportQuery,
    data: csvText,
  },
  adminExportWithdrawals: {
    ...endpoints.adminExportWithdrawals,
    policy: 'admin',
    summary:
      'CSV of the withdrawals requested in [from, to), oldest first, with their state and payout account, streamed',
    tag: 'admin',
    query: exportQuery,
    data: csvText,
  },
} as const satisfies Record<string, RouteDef>;
