import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, users, withdrawalHistory, withdrawals } from '../../db/schema';

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

/**
 * The sum of the users' cached balances by account kind (`wallet`, `hold`), in paise: what the platform
 * owes its users. Staff accounts (admin, reviewer) are left out: a staff wallet is not a user's money.
 */
export async function userBalancesByKind(db: Executor) {
  const rows = await db
    .select({ kind: accounts.kind, total: sql<string>`sum(${accounts.balance})::text` })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(eq(users.role, 'user'))
    .groupBy(accounts.kind);
  return new Map(rows.map((r) => [r.kind, BigInt(r.total)]));
}

/**
 * Withdrawals that became paid since `since` and are paid now (a payout the bank returned did not
 * reach it): how many, their gross amount, the fees kept and the net that went to the banks, in paise.
 */
export async function paidOutSince(db: Executor, since: Date) {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(${withdrawals.amount}), 0)::text`,
      fee: sql<string>`coalesce(sum(${withdrawals.fee}), 0)::text`,
    })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'paid'),
        sql`${withdrawals.id} in (select ${withdrawalHistory.withdrawalId} from ${withdrawalHistory}
          where ${withdrawalHistory.toState} = 'paid' and ${gte(withdrawalHistory.createdAt, since)})`,
      ),
    );
  return { count: row?.count ?? 0, amount: BigInt(row?.amount ?? '0'), fee: BigInt(row?.fee ?? '0') };
}
