import { and, asc, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { jobs, withdrawals } from '../../db/schema';

/** Approved withdrawals with no unfinished dispatch job (`<prefix><id>`): their dispatch was lost. */
export async function approvedWithoutDispatch(db: Executor, dedupeKeyPrefix: string) {
  const rows = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'approved'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(jobs)
            .where(and(eq(jobs.dedupeKey, sql`${dedupeKeyPrefix} || ${withdrawals.id}::text`), isNull(jobs.doneAt))),
        ),
      ),
    )
    .orderBy(asc(withdrawals.id));
  return rows.map((r) => r.id);
}

/** Withdrawals still processing that were last handed to the gateway before `before`. */
export async function processingDispatchedBefore(db: Executor, before: Date) {
  const rows = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'processing'),
        sql`coalesce(${withdrawals.dispatchedAt}, ${withdrawals.updatedAt}) < ${before.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(withdrawals.id));
  return rows.map((r) => r.id);
}

/** Records that a processing withdrawal was handed to the gateway again. */
export async function markDispatched(db: Executor, id: number, at: Date) {
  await db.update(withdrawals).set({ dispatchedAt: at }).where(eq(withdrawals.id, id));
}
