import { and, asc, eq, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, users, withdrawals } from '../../db/schema';

/**
 * Where the previous batch ended. `at` is the row's `created_at` as PostgreSQL prints it (microseconds
 * and offset), so the next batch resumes exactly there: a JavaScript Date keeps only milliseconds.
 */
export interface Resume {
  at: string;
  id: number;
}

export interface BatchFilter {
  from?: Date;
  to?: Date;
  after?: Resume;
  limit: number;
}

/**
 * [from, to) on `createdAt`, past the resume point, in (created_at, id) order. The lower bound is always
 * one row comparison, never `created_at >= from` beside `created_at < to`: without statistics (PGlite
 * never analyzes) the planner gives such a pair a tiny selectivity, reads the whole rest of the range
 * and sorts it for every batch, where one comparison keeps it on the index in order (100 times faster
 * at 100,000 rows). Ids are positive, so `(created_at, id) > (from, 0)` is `created_at >= from`.
 */
function inRange(createdAt: PgColumn, id: PgColumn, filter: BatchFilter): SQL | undefined {
  const start = filter.after ?? (filter.from ? { at: filter.from.toISOString(), id: 0 } : undefined);
  return and(
    start === undefined ? undefined : sql`(${createdAt}, ${id}) > (${start.at}::timestamptz, ${start.id})`,
    filter.to === undefined ? undefined : lt(createdAt, filter.to),
  );
}

const wallet = alias(accounts, 'wallet');
const hold = alias(accounts, 'hold');

export async function userBatch(db: Executor, filter: BatchFilter) {
  return db
    .select({
      id: users.id,
      at: sql<string>`${users.createdAt}::text`,
      username: users.username,
      inviteCode: users.inviteCode,
      role: users.role,
      frozen: users.frozen,
      inviterId: users.inviterId,
      createdAt: users.createdAt,
      balance: wallet.balance,
      hold: hold.balance,
    })
    .from(users)
    .leftJoin(wallet, and(eq(wallet.userId, users.id), eq(wallet.kind, 'wallet')))
    .leftJoin(hold, and(eq(hold.userId, users.id), eq(hold.kind, 'hold')))
    .where(inRange(users.createdAt, users.id, filter))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(filter.limit);
}

/** Entries of users' accounts (platform sides left out), with their user and posting. */
export async function movementBatch(db: Executor, filter: BatchFilter) {
  return db
    .select({
      id: entries.id,
      at: sql<string>`${entries.createdAt}::text`,
      createdAt: entries.createdAt,
      userId: users.id,
      username: users.username,
      account: accounts.kind,
      type: postings.type,
      amount: entries.amount,
      balanceAfter: entries.balanceAfter,
      postingId: entries.postingId,
      ref: postings.ref,
    })
    .from(entries)
    .innerJoin(accounts, and(eq(accounts.id, entries.accountId), isNotNull(accounts.userId)))
    .innerJoin(users, eq(users.id, accounts.userId))
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(inRange(entries.createdAt, entries.id, filter))
    .orderBy(asc(entries.createdAt), asc(entries.id))
    .limit(filter.limit);
}

/** Withdrawals requested in the range, with the requester's username. */
export async function withdrawalBatch(db: Executor, filter: BatchFilter) {
  return db
    .select({
      id: withdrawals.id,
      at: sql<string>`${withdrawals.createdAt}::text`,
      createdAt: withdrawals.createdAt,
      userId: withdrawals.userId,
      username: users.username,
      state: withdrawals.state,
      amount: withdrawals.amount,
      accountType: withdrawals.accountType,
      ifsc: withdrawals.ifsc,
      accountNo: withdrawals.accountNo,
      accountName: withdrawals.accountName,
      reason: withdrawals.reason,
      reference: withdrawals.reference,
      reviewerId: withdrawals.reviewerId,
      reviewedAt: withdrawals.reviewedAt,
      finishedAt: withdrawals.finishedAt,
    })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(inRange(withdrawals.createdAt, withdrawals.id, filter))
    .orderBy(asc(withdrawals.createdAt), asc(withdrawals.id))
    .limit(filter.limit);
}
