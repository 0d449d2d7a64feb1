import { and, eq, lt } from 'drizzle-orm';
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

/** One caller's key on one route. */
export interface ScopedKey {
  userId: number;
  scope: string;
  key: string;
}

const whereKey = (k: ScopedKey) =>
  and(eq(idempotencyKeys.userId, k.userId), eq(idempotencyKeys.scope, k.scope), eq(idempotencyKeys.key, k.key));

/** Writes the key; false when it exists (a retry, or a parallel call that committed first). */
export async function claimKey(db: Executor, k: ScopedKey & { requestHash: string }): Promise<boolean> {
  const claimed = await db
    .insert(idempotencyKeys)
    .values(k)
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

/** The first call's request hash and stored answer. */
export async function firstCall(db: Executor, k: ScopedKey) {
  const [first] = await db
    .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(whereKey(k));
  return first;
}

/** Stores the answer a retry gets. */
export async function storeAnswer(db: Executor, k: ScopedKey, response: unknown) {
  await db.update(idempotencyKeys).set({ response }).where(whereKey(k));
}
