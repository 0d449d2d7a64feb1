import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id (the library's default algorithm) with OWASP's m=19456 KiB, t=2, p=1. @node-rs/argon2
 * hashes on libuv's thread pool, so a login flood never blocks the event loop.
 */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/** Verifies against the stored hash; with no user, against a throwaway hash so both cost the same. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  dummy ??= hashPassword('kamai-timing-equaliser');
  const target = stored ?? (await dummy);
  const ok = await verify(target, password).catch(() => false);
  return stored !== undefined && ok;
}
