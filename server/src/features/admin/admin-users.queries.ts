import { EARNING_TYPES, type Role } from '@kamai/contract';
import { and, asc, desc, eq, gte, ilike, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, users } from '../../db/schema';

const wallet = alias(accounts, 'wallet');
const hold = alias(accounts, 'hold');
const inviter = alias(users, 'inviter');

// `${users}.id`, not `${users.id}`: in a one-table query Drizzle leaves the column unqualified, and
// inside the subquery that would name the invitee's own id.
const inviteeCount = sql<number>`(select count(*)::int from ${users} i where i.inviter_id = ${users}.id)`;

/** A user with the figures of the admin list; sums are per user (index `entries_account_idx`). */
function selectUserRows(db: Executor) {
  return db
    .select({
      id: users.id,
      username: users.username,
      inviteCode: users.inviteCode,
      role: users.role,
      frozen: users.frozen,
      deletedAt: users.deletedAt,
      createdAt: users.createdAt,
      balance: sql<string>`coalesce(${wallet.balance}, 0)::text`,
      hold: sql<string>`coalesce(${hold.balance}, 0)::text`,
      inviterId: inviter.id,
      inviterUsername: inviter.username,
      inviteeCount,
      totalEarned: sql<string>`(
        select coalesce(sum(e.amount), 0)::text from ${entries} e join ${postings} p on p.id = e.posting_id
        where e.account_id = ${wallet.id}
          and p.type in (${sql.join(
            EARNING_TYPES.map((type) => sql`${type}`),
            sql`, `,
          )}))`,
      // Paid-out money leaves the user's accounts (wallet or hold), whichever the posting debits; a payout
      // the bank returned comes back (reversal) and a recovered overpayment leaves again (recovery).
      totalWithdrawn: sql<string>`(
        select coalesce(-sum(e.amount), 0)::text
        from ${accounts} a join ${entries} e on e.account_id = a.id join ${postings} p on p.id = e.posting_id
        where a.user_id = ${users.id} and p.type in ('withdrawal_paid', 'withdrawal_reversal', 'payout_recovery'))`,
    })
    .from(users)
    .leftJoin(wallet, and(eq(wallet.userId, users.id), eq(wallet.kind, 'wallet')))
    .leftJoin(hold, and(eq(hold.userId, users.id), eq(hold.kind, 'hold')))
    .leftJoin(inviter, eq(inviter.id, users.inviterId));
}

export interface UserFilter {
  search?: string;
  role?: Role;
  frozen?: boolean;
  inviterId?: number;
  joinedFrom?: Date;
  joinedTo?: Date;
  beforeId?: number;
  limit: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Part of the username (a phone typed with spaces, dashes or +91 matches its digits) or a whole invite code. */
function searchOf(term: string): SQL | undefined {
  const phoneLike = /^[+\d\s-]+$/.test(term);
  const needle = phoneLike ? term.replace(/\D/g, '') : term.toLowerCase();
  return or(ilike(users.username, `%${escapeLike(needle)}%`), eq(users.inviteCode, term.toUpperCase()));
}

export async function listUserRows(db: Executor, filter: UserFilter) {
  return selectUserRows(db)
    .where(
      and(
        filter.search ? searchOf(filter.search) : undefined,
        filter.role === undefined ? undefined : eq(users.role, filter.role),
        filter.frozen === undefined ? undefined : eq(users.frozen, filter.frozen),
        filter.inviterId === undefined ? undefined : eq(users.inviterId, filter.inviterId),
        filter.joinedFrom === undefined ? undefined : gte(users.createdAt, filter.joinedFrom),
        filter.joinedTo === undefined ? undefined : lt(users.createdAt, filter.joinedTo),
        filter.beforeId === undefined ? undefined : lt(users.id, filter.beforeId),
      ),
    )
    .orderBy(desc(users.id))
    .limit(filter.limit);
}

export async function findUserRow(db: Executor, userId: number) {
  const [row] = await selectUserRows(db).where(eq(users.id, userId)).limit(1);
  return row;
}
export type UserRowRecord = NonNullable<Awaited<ReturnType<typeof findUserRow>>>;

/** The newest invitees of `inviterId`, with their own invitee counts. */
export async function listTreeLevel1(db: Executor, inviterId: number, limit: number) {
  return db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      frozen: users.frozen,
      createdAt: users.createdAt,
      inviteeCount,
    })
    .from(users)
    .where(eq(users.inviterId, inviterId))
    .orderBy(desc(users.id))
    .limit(limit);
}

/** The newest `perParent` invitees of each of the given users. */
export async function listTreeLevel2(db: Executor, parentIds: number[], perParent: number) {
  if (parentIds.length === 0) return [];
  const ranked = db
    .select({
      id: users.id,
      parentId: users.inviterId,
      username: users.username,
      role: users.role,
      frozen: users.frozen,
      createdAt: users.createdAt,
      inviteeCount: inviteeCount.as('invitee_count'),
      rank: sql<number>`row_number() over (partition by ${users.inviterId} order by ${users.id} desc)`.as('rank'),
    })
    .from(users)
    .where(inArray(users.inviterId, parentIds))
    .as('ranked');
  return db.select().from(ranked).where(lte(ranked.rank, perParent)).orderBy(asc(ranked.parentId), desc(ranked.id));
}

/** What an admin action reads of the accounts it locks. */
const LOCKED = {
  id: users.id,
  username: users.username,
  role: users.role,
  frozen: users.frozen,
  deletedAt: users.deletedAt,
};

/** Locks the given users' rows in ascending id order (so two admin actions on one pair cannot deadlock). */
export async function lockUsers(db: Executor, ids: number[]) {
  return db.select(LOCKED).from(users).where(inArray(users.id, ids)).orderBy(asc(users.id)).for('update');
}

/** Accounts by username, locked like `lockUsers`. */
export async function lockUsersByUsername(db: Executor, usernames: string[]) {
  return db.select(LOCKED).from(users).where(inArray(users.username, usernames)).orderBy(asc(users.id)).for('update');
}
