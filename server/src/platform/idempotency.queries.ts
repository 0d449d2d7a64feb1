import { eq, lt, sql } from 'drizzle-orm';
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

/**
 * Takes the key for this request (db/functions `idempotency_claim`, the one implementation
 * `withdraw_request` calls too): null when it is new, `{ replay }` with the first answer when the same
 * request was answered; a key reused for another request is refused by the function
 * (`idempotency_key_reused`, raised as a refusal the caller turns into its envelope).
 */
export async function claimKey(
  db: Executor,
  k: ScopedKey & { requestHash: string },
): Promise<{ replay: unknown } | null> {
  const claimed = await db.execute(
    sql`select idempotency_claim(${k.userId}::bigint, ${k.scope}, ${k.key}, ${k.requestHash}) as c`,
  );
  const [row] = (claimed as unknown as { rows: { c: unknown }[] }).rows;
  return (typeof row?.c === 'string' ? JSON.parse(row.c) : row?.c) as { replay: unknown } | null;
}

/** Stores the answer a retry gets (db/functions `idempotency_answer`). */
export async function storeAnswer(db: Executor, k: ScopedKey, answerJson: string) {
  await db.execute(sql`select idempotency_answer(${k.userId}::bigint, ${k.scope}, ${k.key}, ${answerJson}::jsonb)`);
}
