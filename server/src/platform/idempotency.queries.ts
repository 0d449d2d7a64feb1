import { eq, lt } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { idempotencyKeys } from '../db/schema';

/**
 * Deletes keys older than `before`. A client retries a request within seconds or minutes; a key older
 * than the retention (IDEMPOTENCY_RETENTION_HOURS) no longer guards anything. Run hourly, so one call
 * deletes about an hour's keys.
 */
export async function pruneIdempotencyKeys(db: Executor, before: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/** A deleted account's idempotency keys and their stored answers (docs/decisions/account-deletion.md). */
export async function deleteUserIdempotencyKeys(db: Executor, userId: number) {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
}
