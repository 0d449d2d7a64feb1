import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { sandboxPayouts } from '../../db/schema';

export type SandboxPayoutRow = typeof sandboxPayouts.$inferSelect;

/** The sandbox's payout for an order, locked so a concurrent dispatch of the same order waits. */
export async function lockPayout(db: Executor, orderNo: string) {
  const [row] = await db.select().from(sandboxPayouts).where(eq(sandboxPayouts.orderNo, orderNo)).for('update');
  return row;
}

export async function findPayout(db: Executor, orderNo: string) {
  const [row] = await db.select().from(sandboxPayouts).where(eq(sandboxPayouts.orderNo, orderNo));
  return row;
}

/** The new payout, or undefined when a concurrent dispatch created the order first. */
export async function insertPayout(db: Executor, values: typeof sandboxPayouts.$inferInsert) {
  const [row] = await db.insert(sandboxPayouts).values(values).onConflictDoNothing().returning();
  return row;
}

/** Counts a repeated dispatch of an order; the newest notify URL is where its outcome is reported. */
export async function countRepeatDispatch(db: Executor, orderNo: string, notifyUrl: string) {
  await db
    .update(sandboxPayouts)
    .set({ dispatchCount: sql`${sandboxPayouts.dispatchCount} + 1`, notifyUrl })
    .where(eq(sandboxPayouts.orderNo, orderNo));
}

export async function markNotified(db: Executor, orderNo: string, at: Date) {
  await db.update(sandboxPayouts).set({ notifiedAt: at }).where(eq(sandboxPayouts.orderNo, orderNo));
}

/** The sandbox gateway's own copy of the account each of these payouts went to, emptied. */
export async function forgetSandboxAccounts(db: Executor, orderNos: string[]) {
  if (orderNos.length === 0) return;
  await db.update(sandboxPayouts).set({ account: {} }).where(inArray(sandboxPayouts.orderNo, orderNos));
}
