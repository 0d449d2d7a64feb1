import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { concurrencyLimit, QueueFullError } from '../../platform/concurrency';
import { AppError } from '../../platform/errors';

/**
 * Argon2id (the library's default algorithm) with OWASP's m=19456 KiB, t=2, p=1. @node-rs/argon2
 * hashes on libuv's thread pool, so hashing never blocks the event loop; but four pool threads
 * hashing at once take every core of a small machine, and the event loop (and PGlite, which runs
 * on it) then waits for CPU. So at most one hash per core but one runs at once; a flood queues
 * behind them, and past a second or so of queue a login is answered "busy" at once (benchmark 5,
 * docs/performance.md).
 */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const HASHES_AT_ONCE = Math.max(1, availableParallelism() - 1);
const limit = concurrencyLimit(HASHES_AT_ONCE, 64 * HASHES_AT_ONCE);

async function limited<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await limit(task);
  } catch (error) {
    if (error instanceof QueueFullError) throw new AppError('service_unavailable');
    throw error;
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, OPTIONS));
}

let dummy: Promise<string> | undefined;

/** Verifies against the stored hash; with no user, against a throwaway hash so both cost the same. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  // Outside the limit: made once, and a refused attempt must not be remembered as the dummy.
  dummy ??= hash('kamai-timing-equaliser', OPTIONS);
  const target = stored ?? (await dummy);
  const ok = await limited(() => verify(target, password)).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    return false;
  });
  return stored !== undefined && ok;
}
