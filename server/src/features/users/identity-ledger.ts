import { createHmac } from 'node:crypto';
import type { Executor } from '../../db/client';
import { sharedSecret } from '../../platform/secrets';
import * as q from './identity-ledger.queries';

/** The settings row that holds the generated key when `IDENTITY_HASH_SECRET` is unset (development). */
export const IDENTITY_KEY_SETTING = 'identity_hash_secret';

function hmac(key: string, value: string) {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** The current hash of one identity and, while a rotation is under way, its hashes under the previous keys. */
export interface IdentityHashes {
  current: string;
  previous: string[];
}

/**
 * The ledger of every identity (normalised phone or e-mail) ever registered
 * (docs/decisions/account-deletion.md): an HMAC-SHA256 of the username under
 * `IDENTITY_HASH_SECRET`, so a deleted account's phone is recognised when it registers again without
 * the phone itself being kept. The key lives outside the database (docs/decisions/keys-outside-the-database.md):
 * only development, with the variable unset, uses a key generated once and kept in settings.
 * `previous`: the keys of a rotation under way (`IDENTITY_HASH_SECRET_PREVIOUS`); a hash under one of
 * them still matches, and is replaced by the current key's when it does.
 */
export function createIdentityLedger(db: Executor, given: string | undefined, previous: readonly string[] = []) {
  let secret: Promise<string> | undefined;
  function key() {
    secret ??= sharedSecret(db, IDENTITY_KEY_SETTING, given).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  }

  /** The identity's hash under the current key (what new rows hold). */
  async function hashOf(username: string) {
    return hmac(await key(), username);
  }

  /** Every hash the identity may be stored under: the current key's and the previous keys'. */
  async function hashesOf(username: string): Promise<IdentityHashes> {
    const current = await hashOf(username);
    return { current, previous: previous.map((old) => hmac(old, username)).filter((h) => h !== current) };
  }

  /**
   * Records the identity's hashes (from `hashesOf`, taken before the caller's transaction: the key is
   * read outside it); answers whether it was registered before (a returning identity). A row under a
   * previous key is moved to the current key.
   */
  async function record(tx: Executor, hashes: IdentityHashes | string): Promise<boolean> {
    const { current, previous: old } = typeof hashes === 'string' ? { current: hashes, previous: [] } : hashes;
    const added = await q.insertIdentityHash(tx, current);
    const moved = await q.deleteIdentityHashes(tx, old);
    return !added || moved > 0;
  }

  /**
   * Moves every identity the server still knows (each live account's canonical identity and its name
   * as typed) from the previous keys to the current one. A deleted identity's hash cannot be moved (its
   * phone or e-mail is gone and an HMAC cannot be re-keyed): it keeps matching while its key is in
   * `previous`, and is moved if it registers again meanwhile. Answers how many rows were moved.
   */
  async function rehash(): Promise<number> {
    if (previous.length === 0) return 0;
    let moved = 0;
    for (const row of await q.liveIdentities(db)) {
      for (const name of new Set([row.identity ?? row.username, row.username])) {
        const hashes = await hashesOf(name);
        const found = await q.countIdentityHashes(db, hashes.previous);
        if (found === 0) continue;
        // The current hash first: a stop in between leaves both, never neither.
        await q.insertIdentityHash(db, hashes.current);
        await q.deleteIdentityHashes(db, hashes.previous);
        moved += found;
      }
    }
    return moved;
  }

  return { hashOf, hashesOf, record, rehash };
}

export type IdentityLedger = ReturnType<typeof createIdentityLedger>;

/** Whether the user registered with an identity registered before (no first-time rewards again). */
export async function isReturningIdentity(db: Executor, userId: number): Promise<boolean> {
  return q.returningIdentityOf(db, userId);
}
