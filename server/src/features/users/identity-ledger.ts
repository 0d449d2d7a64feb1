import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { identityLedger, users } from '../../db/schema';
import { sharedSecret } from '../../platform/secrets';

/**
 * The ledger of every identity (normalised phone or e-mail) ever registered (issue 22;
 * docs/decisions/account-deletion.md): an HMAC-SHA256 of the username under the
 * `IDENTITY_HASH_SECRET` (else a secret generated once and kept in settings), so a deleted account's
 * phone is recognised when it registers again without the phone itself being kept.
 */
export function createIdentityLedger(db: Executor, given: string | undefined) {
  let secret: Promise<string> | undefined;
  function key() {
    secret ??= sharedSecret(db, 'identity_hash_secret', given).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  }

  async function hashOf(username: string) {
    return createHmac('sha256', await key())
      .update(username)
      .digest('hex');
  }

  /**
   * Records the identity's hash (from `hashOf`, taken before the caller's transaction: the key is read
   * outside it); answers whether it was registered before (a returning identity).
   */
  async function record(tx: Executor, hash: string): Promise<boolean> {
    const inserted = await tx
      .insert(identityLedger)
      .values({ hash })
      .onConflictDoNothing()
      .returning({ hash: identityLedger.hash });
    return inserted.length === 0;
  }

  return { hashOf, record };
}

export type IdentityLedger = ReturnType<typeof createIdentityLedger>;

/** Whether the user registered with an identity registered before (no first-time rewards again). */
export async function isReturningIdentity(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ returning: users.returningIdentity })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.returning ?? false;
}
