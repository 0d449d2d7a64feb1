import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { payoutAccounts, withdrawals } from '../../db/schema';

export type PayoutAccountRow = typeof payoutAccounts.$inferSelect;
export type NewPayoutAccount = typeof payoutAccounts.$inferInsert;

/** The user's accounts, default first, then newest first. */
export async function listAccounts(db: Executor, userId: number) {
  return db
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.userId, userId))
    .orderBy(desc(payoutAccounts.isDefault), desc(payoutAccounts.id));
}

export async function countAccounts(db: Executor, userId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.userId, userId));
  return row?.n ?? 0;
}

/**
 * One of the user's accounts (another user's id finds nothing), optionally locked: `update` to change
 * or delete it, `share` while a withdrawal copies it (a delete then waits for that withdrawal).
 */
export async function findOwnAccount(db: Executor, userId: number, id: number, lock?: 'update' | 'share') {
  const query = db
    .select()
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.id, id), eq(payoutAccounts.userId, userId)))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function insertAccount(db: Executor, values: NewPayoutAccount) {
  const [row] = await db.insert(payoutAccounts).values(values).returning();
  if (!row) throw new Error('insert payout_accounts returned no row');
  return row;
}

export async function updateAccount(db: Executor, id: number, values: Partial<NewPayoutAccount>) {
  const [row] = await db.update(payoutAccounts).set(values).where(eq(payoutAccounts.id, id)).returning();
  if (!row) throw new Error(`payout account ${id} vanished while locked`);
  return row;
}

/** Unsets the user's default (but `exceptId`'s), so one can be set without meeting the unique index. */
export async function clearDefault(db: Executor, userId: number, exceptId?: number) {
  await db
    .update(payoutAccounts)
    .set({ isDefault: false })
    .where(
      and(
        eq(payoutAccounts.userId, userId),
        eq(payoutAccounts.isDefault, true),
        exceptId === undefined ? undefined : ne(payoutAccounts.id, exceptId),
      ),
    );
}

export async function deleteAccount(db: Executor, id: number) {
  await db.delete(payoutAccounts).where(eq(payoutAccounts.id, id));
}

export async function hasPendingWithdrawal(db: Executor, accountId: number) {
  const [row] = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.accountId, accountId), eq(withdrawals.state, 'pending')))
    .limit(1);
  return Boolean(row);
}

/** A deleted account's bank and UPI accounts (docs/decisions/account-deletion.md). */
export async function deleteUserPayoutAccounts(db: Executor, userId: number) {
  await db.delete(payoutAccounts).where(eq(payoutAccounts.userId, userId));
}

/** Every payout account of the user, oldest first (the data export). */
export async function payoutAccountsOf(db: Executor, userId: number) {
  return db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)).orderBy(asc(payoutAccounts.id));
}
