import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisLimits } from '../src/platform/rate-limit';
import { dropRedisKeys, freePort, requiredServices } from './cluster';

const services = await requiredServices();

describe.skipIf(!services)('rate limits in Redis (rate-limiter-flexible)', () => {
  const prefix = `kamai-rel-counters-${process.pid}-${Date.now()}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(services?.redisUrl as string);
  });
  afterAll(async () => {
    redis.disconnect();
    if (services) await dropRedisKeys(services.redisUrl, prefix);
  });

  it('counts 200 takes from two clients at once exactly: 100 let through, 100 refused, one window with an expiry', async () => {
    const other = new Redis(services?.redisUrl as string);
    // Until a client is ready its limits count in memory (the insurance), as at a server's start.
    await Promise.all([redis, other].map((client) => (client.status === 'ready' ? undefined : once(client, 'ready'))));
    const limits = [redis, other].map((client) => redisLimits(client, { prefix }).limit('login:ip', 100, 60));
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => limits[i % 2]?.take('10.0.0.1')));
    other.disconnect();
    expect(results.filter((r) => r?.ok)).toHaveLength(100);
    const refused = results.filter((r) => r && !r.ok) as { ok: false; retryAfterSeconds: number }[];
    expect(refused).toHaveLength(100);
    expect(refused.every((r) => r.retryAfterSeconds > 50 && r.retryAfterSeconds <= 60)).toBe(true);
    const keys = await redis.keys(`${prefix}login:ip*`);
    expect(keys).toHaveLength(1);
    expect(await redis.pttl(keys[0] as string)).toBeGreaterThan(50_000);
  });

  it('opens a new window when the last one expired, and takes back a point given back', async () => {
    const limit = redisLimits(redis, { prefix }).limit('short', 2, 1);
    expect((await limit.take('a')).ok).toBe(true);
    expect((await limit.take('a')).ok).toBe(true);
    expect((await limit.take('a')).ok).toBe(false);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await limit.take('a')).ok).toBe(true);
    expect((await limit.take('a')).ok).toBe(true);
    await limit.giveBack('a');
    expect((await limit.take('a')).ok).toBe(true);
    expect((await limit.take('a')).ok).toBe(false);
  });

  it('falls back to counting in memory when Redis does not answer, and says so', async () => {
    const closed = await freePort();
    const dead = new Redis(`redis://127.0.0.1:${closed}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    dead.on('error', () => undefined);
    let fallbacks = 0;
    const limit = redisLimits(dead, { prefix, onFallback: () => (fallbacks += 1) }).limit('otp:ip', 2, 60);
    expect((await limit.take('10.0.0.9')).ok).toBe(true);
    expect((await limit.take('10.0.0.9')).ok).toBe(true);
    expect(await limit.take('10.0.0.9')).toMatchObject({ ok: false });
    expect(fallbacks).toBe(3);
    dead.disconnect();
  });
});
