import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A Redis client for `url` that lives as long as the app: it fails a command at once while
 * disconnected (the caller falls back) instead of queueing it, keeps reconnecting, warns at most
 * once a minute, and quits when the app closes. Waits briefly for the first connection; if Redis is
 * not there yet the client is returned anyway and connects when it can.
 */
export async function connectRedis(app: FastifyInstance, url: string, what: string): Promise<Redis> {
  const redis = new Redis(url, {
    // Fail a command at once while disconnected (and fall back) instead of queueing it behind a login.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let lastWarning = 0;
  redis.on('error', (error) => {
    // ioredis reports every failed reconnect; one line a minute is enough.
    if (Date.now() - lastWarning > 60_000) {
      lastWarning = Date.now();
      app.log.warn({ err: error }, `redis unavailable: ${what}`);
    }
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  await Promise.race([once(redis, 'ready'), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  return redis;
}
