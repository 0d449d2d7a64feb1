import type { Redis } from 'ioredis';

/**
 * Fixed-window counters of the per-address limits (login failures per IP, codes sent per IP). In
 * one process they live in memory; with several instances behind a load balancer they live in Redis
 * (`REDIS_URL`), so every instance sees the same count. The per-account and per-target limits are
 * rows in PostgreSQL and need neither.
 */
export interface RateCounters {
  /** The count of the window now open for `key` (0 when none) and the seconds until it closes. */
  current(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  /** Counts one more in `key`'s window (opening a window of `windowMs` when none is open); the new count. */
  increment(key: string, windowMs: number): Promise<number>;
}

/** In-process counters: one instance, or the fallback while Redis cannot be reached. */
export class WindowCounter implements RateCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async current(key: string) {
    const entry = this.windows.get(key);
    const at = this.now();
    if (!entry || entry.resetAt <= at) return { count: 0, retryAfterSeconds: 0 };
    return { count: entry.count, retryAfterSeconds: Math.ceil((entry.resetAt - at) / 1000) };
  }

  async increment(key: string, windowMs: number) {
    const at = this.now();
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= at) {
      if (this.windows.size > 100_000) this.sweep(at);
      this.windows.set(key, { count: 1, resetAt: at + windowMs });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  private sweep(at: number) {
    for (const [key, entry] of this.windows) if (entry.resetAt <= at) this.windows.delete(key);
  }
}

/** INCR and the window's expiry in one step: a crash between the two can never leave a key without one. */
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
const CURRENT = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}`;

/**
 * Counters shared by every instance through Redis. The window runs on Redis's clock. When Redis does
 * not answer, the count falls back to this process's memory (each instance limits on its own until
 * Redis is back) rather than refusing every login: the limits per account and per target, which
 * matter most, are in PostgreSQL and hold all along.
 */
export function redisCounters(
  redis: Redis,
  options: { prefix: string; fallback: RateCounters; onError?: (error: Error) => void },
): RateCounters {
  const fail = (error: unknown) => options.onError?.(error as Error);
  return {
    async current(key) {
      try {
        const [count, ttlMs] = (await redis.eval(CURRENT, 1, options.prefix + key)) as [number, number];
        return { count, retryAfterSeconds: Math.max(0, Math.ceil(ttlMs / 1000)) };
      } catch (error) {
        fail(error);
        return options.fallback.current(key);
      }
    },
    async increment(key, windowMs) {
      try {
        return Number(await redis.eval(INCREMENT, 1, options.prefix + key, windowMs));
      } catch (error) {
        fail(error);
        return options.fallback.increment(key, windowMs);
      }
    },
  };
}
