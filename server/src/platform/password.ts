import { availableParallelism } from 'node:os';
import { hash } from '@node-rs/argon2';
import { Piscina } from 'piscina';
import { AppError } from './errors';

/**
 * Argon2id (the library's default algorithm) with OWASP's m=19456 KiB, t=2, p=1, off the event loop
 * on low-priority worker threads (`hash-worker.mjs`) in two piscina pools:
 * - `login`: one thread per core; logins, password changes and operator resets;
 * - `signup`: half as many; the anonymous registrations and password resets.
 * Each pool has its own threads and queue, so a flood of sign-ups fills only its own and cannot
 * starve logins (docs/decisions/password-hashing-pools.md). Past a pool's queue cap (`maxQueue`: 64 per thread for
 * login,
 * 32 for sign-ups) a task is answered "busy" (503) at once rather than after seconds (benchmark 5).
 */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const CORES = Math.max(1, availableParallelism());
const SHAPES = {
  login: { threads: CORES, queuePerThread: 64 },
  signup: { threads: Math.max(1, Math.floor(CORES / 2)), queuePerThread: 32 },
} as const;
export type HashPool = keyof typeof SHAPES;

type HashTask =
  | { op: 'hash'; password: string; options: Record<string, number> }
  | { op: 'verify'; stored: string; password: string };

const pools = new Map<HashPool, Piscina<HashTask, string | boolean>>();
const nice: Record<HashPool, number> = { login: 19, signup: 19 };

/** Sets each pool's thread priority (config HASH_NICE_*); applies to threads started afterwards. */
export function setHashPriorities(priorities: Record<HashPool, number>): void {
  Object.assign(nice, priorities);
}

/** Made when first needed: importing this module starts no thread. */
function poolOf(name: HashPool) {
  let pool = pools.get(name);
  if (!pool) {
    const { threads, queuePerThread } = SHAPES[name];
    pool = new Piscina<HashTask, string | boolean>({
      filename: new URL('./hash-worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      maxQueue: threads * queuePerThread,
      idleTimeout: 60_000,
      workerData: { nice: nice[name] },
    });
    pools.set(name, pool);
  }
  return pool;
}

async function run<T extends string | boolean>(name: HashPool, task: HashTask): Promise<T> {
  const pool = poolOf(name);
  // piscina would refuse the task too ("Task queue is at limit"); checked here to answer by status, not by text.
  if (pool.queueSize >= pool.options.maxQueue) throw new AppError('service_unavailable');
  return (await pool.run(task)) as T;
}

/** A new hash of `password`, on the given pool. */
export function hashPassword(password: string, pool: HashPool = 'login'): Promise<string> {
  return run<string>(pool, { op: 'hash', password, options: OPTIONS });
}

let dummy: Promise<string> | undefined;

/** Verifies against the stored hash; with no user, against a throwaway hash so both cost the same. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  // Outside the pools: made once, and a refused attempt must not be remembered as the dummy.
  dummy ??= hash('kamai-timing-equaliser', OPTIONS);
  const target = stored ?? (await dummy);
  const ok = await run<boolean>('login', { op: 'verify', stored: target, password }).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    return false;
  });
  return stored !== undefined && ok;
}
