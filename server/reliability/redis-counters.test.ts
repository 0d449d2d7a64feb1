import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisCounters, WindowCounter } from '../src/platform/rate-limit';
import { dropRedisKeys, freePort, requiredServices } from './cluster';

const services = await requiredServices();

describe.skipIf(!services)('rate counters in Redis', () => {
  const prefix = `kamai-rel-counters-${process.pid}-${Date.now()}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(services?.redisUrl as string);
  });
  afterAll(async () => {
    redis.disconnect();
    if (services) await dropRedisKeys(services.redisUrl, prefix);
  });

  it('counts 200 increments from two clients at once exactly, in one window with an expiry', async () => {
    const other = new Redis(services?.redisUrl as string);
    const counters = [redis, other].map((client) => redisCounters(client, { prefix, fallback: new WindowCounter() }));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => counters[i % 2]?.increment('login:ip:10.0.0.1', 60_000)),
    );
    other.disconnect();
    expect(results.sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const now = await counters[0]?.current('login:ip:10.0.0.1');
    expect(now?.count).toBe(200);
    expect(now?.retryAfterSeconds).toBeGreaterThan(50);
    expect(await redis.pttl(`${prefix}login:ip:10.0.0.1`)).toBeGreaterThan(50_000);
    expect(await counters[0]?.current('never:counted')).toEqual({ count: 0, retryAfterSeconds: 0 });
  });

  it('opens a new window when the last one expired', async () => {
    const counters = redisCounters(redis, { prefix, fallback: new WindowCounter() });
    expect(await counters.increment('short', 50)).toBe(1);
    expect(await counters.increment('short', 50)).toBe(2);
    await new Promise((r) => setTimeout(r, 120));
    expect(await counters.increment('short', 50)).toBe(1);
  });

  it('falls back to counting in memory when Redis does not answer, and says so', async () => {
    const closed = await freePort();
    const dead = new Redis(`redis://127.0.0.1:${closed}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    dead.on('error', () => undefined);
    const errors: Error[] = [];
    const counters = redisCounters(dead, { prefix, fallback: new WindowCounter(), onError: (e) => errors.push(e) });
    expect(await counters.increment('otp:ip:10.0.0.9', 60_000)).toBe(1);
    expect(await counters.increment('otp:ip:10.0.0.9', 60_000)).toBe(2);
    expect((await counters.current('otp:ip:10.0.0.9')).count).toBe(2);
    expect(errors.length).toBe(3);
    dead.disconnect();
  });
});
