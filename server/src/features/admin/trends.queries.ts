import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, entries, payoutMismatches, postings, users, withdrawalHistory, withdrawals } from '../../db/schema';
import { businessDaySql } from '../../platform/business-day-sql';

/** Accounts with role `user` created since `since`, per day (users_created_idx). */
export async function signUpsByDay(db: Executor, since: Date) {
  const day = businessDaySql(users.createdAt);
  return db
    .select({ day, count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(gte(users.createdAt, since), eq(users.role, 'user')))
    .groupBy(day);
}

/** Withdrawals that entered pending (requested), approved, paid or failed since `since`, per day and state. */
export async function withdrawalStatesByDay(db: Executor, since: Date) {
  const day = businessDaySql(withdrawalHistory.createdAt);
  return db
    .select({
      day,
      state: withdrawalHistory.toState,
      count: sql<number>`count(*)::int`,
      amount: sql<string>`sum(${withdrawals.amount})::text`,
    })
    .from(withdrawalHistory)
    .innerJoin(withdrawals, eq(withdrawals.id, withdrawalHistory.withdrawalId))
    .where(
      and(
        gte(withdrawalHistory.createdAt, since),
        inArray(withdrawalHistory.toState, ['pending', 'approved', 'paid', 'failed']),
      ),
    )
    .groupBy(day, withdrawalHistory.toState);
}

/** Money credited to users' wallets by task rewards and rebates since `since`, per day and type (entries_created_idx). */
export async function creditsByDay(db: Executor, since: Date) {
  const day = businessDaySql(entries.createdAt);
  return db
    .select({ day, type: postings.type, amount: sql<string>`sum(${entries.amount})::text` })
    .from(entries)
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .where(
      and(
        gte(entries.createdAt, since),
        inArray(postings.type, ['task_reward', 'rebate']),
        isNotNull(accounts.userId),
        eq(accounts.kind, 'wallet'),
      ),
    )
    .groupBy(day, postings.type);
}

/** Payout mismatches opened since `since`, per day. */
export async function mismatchesByDay(db: Executor, since: Date) {
  const day = businessDaySql(payoutMismatches.createdAt);
  return db
    .select({ day, count: sql<number>`count(*)::int` })
    .from(payoutMismatches)
    .where(gte(payoutMismatches.createdAt, since))
    .groupBy(day);
}
