import type { Redis } from 'ioredis';
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Fixed-window limits per address (login failures per IP, codes sent per IP, registrations and
 * password resets per IP), on `rate-limiter-flexible`. In one process they count in memory; with
 * several instances behind a load balancer they count in Redis (`REDIS_URL`), so every instance sees
 * the same count. The per-account and per-target limits are rows in PostgreSQL and need neither.
 */
/** One hour in seconds, the window of the hourly limits. */
export const HOUR_S = 3600;

export interface RateLimit {
  /**
   * Takes one point of `key`'s window now (opening a window when none is open). Refused when the
   * window already held all its points; a refused take still counts, the window does not grow.
   */
  take(key: string): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
  /** Gives back a point taken by `take`, when what it guarded turned out not to count (a login that succeeded). */
  giveBack(key: string): Promise<void>;
}

export interface RateLimits {
  /** A limit of `points` per window of `windowSeconds`; `name` keeps its keys apart from other limits'. */
  limit(name: string, points: number, windowSeconds: number): RateLimit;
}

function wrap(limiter: RateLimiterMemory | RateLimiterRedis): RateLimit {
  return {
    async take(key) {
      try {
        await limiter.consume(key);
        return { ok: true };
      } catch (result) {
        if (result instanceof RateLimiterRes) {
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)) };
        }
        throw result;
      }
    },
    async giveBack(key) {
      await limiter.reward(key);
    },
  };
}

/** In-process limits: one instance (no REDIS_URL). */
export function memoryLimits(): RateLimits {
  return {
    limit: (name, points, windowSeconds) =>
      wrap(new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds })),
  };
}

/** The in-memory insurance of a Redis limit; `onUse` tells that Redis did not answer. */
class Insurance extends RateLimiterMemory {
  constructor(
    options: IRateLimiterOptions,
    private readonly onUse: () => void,
  ) {
    super(options);
  }
  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    this.onUse();
    return super.consume(...args);
  }
  override reward(...args: Parameters<RateLimiterMemory['reward']>) {
    this.onUse();
    return super.reward(...args);
  }
}

/**
 * Limits shared by every instance through Redis; the window runs on Redis's clock. When Redis does
 * not answer (or is not connected), a limit counts in this process's memory instead (each instance
 * limits on its own until Redis is back) rather than refusing every login: the limits per account
 * and per target, which matter most, are in PostgreSQL and hold all along.
 */
export function redisLimits(
  redis: Redis,
  options: { prefix: string; onFallback?: (error?: Error) => void },
): RateLimits {
  return {
    limit(name, points, windowSeconds) {
      const shape = { keyPrefix: `${options.prefix}${name}`, points, duration: windowSeconds };
      return wrap(
        new RateLimiterRedis({
          ...shape,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new Insurance(shape, () => options.onFallback?.()),
        }),
      );
    },
  };
}
