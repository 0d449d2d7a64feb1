import { availableParallelism } from 'node:os';
import { hash } from '@node-rs/argon2';
import { concurrencyLimit, QueueFullError } from './concurrency';
import { AppError } from './errors';
import { hashWorkers } from './hash-workers';

/**
 * Argon2id (the library's default algorithm) with OWASP's m=19456 KiB, t=2, p=1, off the event
 * loop on low-priority worker threads (`hash-workers.ts`), one per core. A flood of logins queues
 * behind them; past ~64 waiting per worker a login is answered "busy" (503) at once rather than
 * after seconds (benchmark 5, docs/performance.md).
 */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const WORKERS = Math.max(1, availableParallelism());
const limit = concurrencyLimit(WORKERS, 64 * WORKERS);
const run = hashWorkers(WORKERS);

async function limited<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await limit(task);
  } catch (error) {
    if (error instanceof QueueFullError) throw new AppError('service_unavailable');
    throw error;
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => run<string>({ op: 'hash', password, options: OPTIONS }));
}

let dummy: Promise<string> | undefined;

/** Verifies against the stored hash; with no user, against a throwaway hash so both cost the same. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  // Outside the limit: made once, and a refused attempt must not be remembered as the dummy.
  dummy ??= hash('kamai-timing-equaliser', OPTIONS);
  const target = stored ?? (await dummy);
  const ok = await limited(() => run<boolean>({ op: 'verify', stored: target, password })).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    return false;
  });
  return stored !== undefined && ok;
}
