import type { Executor } from '../../db/client';
import { introViews } from '../../db/schema';

/** Idempotent: the first view is the one kept. */
export async function recordView(db: Executor, userId: number) {
  await db.insert(introViews).values({ userId }).onConflictDoNothing();
}
