import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { identityLedger, users } from '../../db/schema';

/** Adds one identity hash; answers whether it was new. */
export async function insertIdentityHash(db: Executor, hash: string): Promise<boolean> {
  const inserted = await db
    .insert(identityLedger)
    .values({ hash })
    .onConflictDoNothing()
    .returning({ hash: identityLedger.hash });
  return inserted.length > 0;
}

/** Deletes these hashes; answers how many there were. */
export async function deleteIdentityHashes(db: Executor, hashes: string[]): Promise<number> {
  if (hashes.length === 0) return 0;
  const deleted = await db
    .delete(identityLedger)
    .where(inArray(identityLedger.hash, hashes))
    .returning({ hash: identityLedger.hash });
  return deleted.length;
}

/** How many of these hashes the ledger holds. */
export async function countIdentityHashes(db: Executor, hashes: string[]): Promise<number> {
  if (hashes.length === 0) return 0;
  const found = await db
    .select({ hash: identityLedger.hash })
    .from(identityLedger)
    .where(inArray(identityLedger.hash, hashes));
  return found.length;
}

/** Every live account's username and canonical identity (what a key rotation can re-hash). */
export async function liveIdentities(db: Executor) {
  return db
    .select({ username: users.username, identity: users.canonicalIdentity })
    .from(users)
    .where(and(isNotNull(users.canonicalIdentity), isNull(users.deletedAt)));
}

export async function returningIdentityOf(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ returning: users.returningIdentity })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.returning ?? false;
}
