import { type AnyColumn, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { introViews, introWatches } from '../../db/schema';

/** Idempotent: the first view is the one kept. */
export async function recordView(db: Executor, userId: number) {
  await db.insert(introViews).values({ userId }).onConflictDoNothing();
}

/** The user's watch, locked; created (started now) by the first report. */
export async function lockOrStartWatch(db: Executor, userId: number, at: Date) {
  await db.insert(introWatches).values({ userId, startedAt: at, updatedAt: at }).onConflictDoNothing();
  const [row] = await db.select().from(introWatches).where(eq(introWatches.userId, userId)).limit(1).for('update');
  if (!row) throw new Error('intro_watches row missing after insert');
  return row;
}

export async function saveWatch(db: Executor, userId: number, watchedSeconds: number, at: Date) {
  await db.update(introWatches).set({ watchedSeconds, updatedAt: at }).where(eq(introWatches.userId, userId));
}

/** Whether the user `userId` names watched the introduction: an SQL expression for another feature's query. */
export function watchedIntroOf(userId: AnyColumn | SQL | number) {
  return sql<boolean>`exists (select 1 from ${introViews} where ${introViews.userId} = ${userId})`;
}
