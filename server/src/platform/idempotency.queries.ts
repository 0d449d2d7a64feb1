import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { idempotencyKeys } from '../db/schema';

export interface IdempotencyClaim {
  userId: number;
  /** The route the key belongs to (`withdraw/add`). */
  scope: string;
  key: string;
  requestHash: string;
}

/**
 * Takes the key for this request in the caller's transaction. Undefined: ours, go ahead. Otherwise the
 * row an earlier request left: a concurrent request with the same key waits here until that one
 * commits (then this finds its row) or rolls back (then the key is ours).
 */
export async function claimIdempotencyKey(db: Executor, claim: IdempotencyClaim) {
  const inserted = await db
    .insert(idempotencyKeys)
    .values(claim)
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return undefined;
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, claim.userId),
        eq(idempotencyKeys.scope, claim.scope),
        eq(idempotencyKeys.key, claim.key),
      ),
    )
    .limit(1);
  if (!row) throw new Error(`idempotency key ${claim.key} conflicted but is not visible`);
  return row;
}

/** Records the answer the key's request got, in the same transaction as its effect. */
export async function saveIdempotentResponse(db: Executor, claim: IdempotencyClaim, response: unknown) {
  await db
    .update(idempotencyKeys)
    .set({ response })
    .where(
      and(
        eq(idempotencyKeys.userId, claim.userId),
        eq(idempotencyKeys.scope, claim.scope),
        eq(idempotencyKeys.key, claim.key),
      ),
    );
}

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
