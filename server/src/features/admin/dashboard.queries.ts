import { and, count, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, users } from '../../db/schema';

/** Accounts with role `user`: all of them, and those created since `since`. */
export async function countUsers(db: Executor, since: Date) {
  const [row] = await db
    .select({
      total: count(),
      since: sql<number>`(count(*) filter (where ${users.createdAt} >= ${since.toISOString()}))::int`,
    })
    .from(users)
    .where(eq(users.role, 'user'));
  return { total: row?.total ?? 0, since: row?.since ?? 0 };
}

/** The sum of the users' cached balances by account kind (`wallet`, `hold`), in paise. */
export async function userBalancesByKind(db: Executor) {
  const rows = await db
    .select({ kind: accounts.kind, total: sql<string>`sum(${accounts.balance})::text` })
    .from(accounts)
    .where(isNotNull(accounts.userId))
    .groupBy(accounts.kind);
  return new Map(rows.map((r) => [r.kind, BigInt(r.total)]));
}

/** Withdrawals paid since `since`: their postings and the money that left the users' accounts. */
export async function paidOutSince(db: Executor, since: Date) {
  const [row] = await db
    .select({
      count: sql<number>`count(distinct ${postings.id})::int`,
      amount: sql<string>`coalesce(-sum(${entries.amount}), 0)::text`,
    })
    .from(entries)
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .where(and(gte(entries.createdAt, since), eq(postings.type, 'withdrawal_paid'), isNotNull(accounts.userId)));
  return { count: row?.count ?? 0, amount: BigInt(row?.amount ?? '0') };
}
