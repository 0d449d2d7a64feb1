import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { ConfigError, loadConfig } from '../src/platform/config';

const PRIMARY = 'postgres://kamai@db:5432/kamai';

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('DATABASE_REPLICA_URLS', () => {
  it('lists one or more standbys of one host each, beside a PostgreSQL primary', () => {
    const config = loadConfig({
      DATABASE_URL: PRIMARY,
      DATABASE_REPLICA_URLS: ' postgres://kamai@replica-1:5432/kamai , postgresql://kamai@replica-2/kamai',
    });
    expect(config.DATABASE_REPLICA_URLS).toEqual([
      'postgres://kamai@replica-1:5432/kamai',
      'postgresql://kamai@replica-2/kamai',
    ]);
    expect(config.DATABASE_REPLICA_MAX_LAG_MS).toBe(2000);
    expect(loadConfig({ DATABASE_URL: PRIMARY }).DATABASE_REPLICA_URLS).toBeUndefined();
  });

  it('is refused on PGlite, and names each bad URL', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://r/kamai' })).toThrow(
      /DATABASE_REPLICA_URLS: needs DATABASE_URL \(a PostgreSQL primary\): PGlite, the default database, has no standbys/,
    );
    const bad = (urls: string) => () => loadConfig({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_URLS: urls });
    expect(bad('mysql://r/kamai')).toThrow(/DATABASE_REPLICA_URLS\.0: URL 1 must start with postgres:\/\//);
    expect(bad('postgres://r1/k,postgres://r2:99999/k')).toThrow(
      /DATABASE_REPLICA_URLS\.1: URL 2 port "99999" is not a port number/,
    );
    expect(bad(' , ')).toThrow(/must list 1 to 16/);
    expect(() => loadConfig({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_MAX_LAG_MS: '10' })).toThrow(ConfigError);
  });

  it('is refused by a PGlite database', async () => {
    await expect(openDatabase({ dataDir: '/nonexistent', replicaUrls: ['postgres://r/kamai'] })).rejects.toThrow(
      /PGlite has no standbys/,
    );
  });

  // A primary named as its own replica is not in recovery, and a replica that does not answer is down:
  // neither is read (server/reliability/replicas.test.ts has the real standby).
  it.runIf(process.env.DATABASE_URL)('skips a replica that is not a standby, or does not answer', async () => {
    const url = process.env.DATABASE_URL as string;
    const dead = new URL(url);
    dead.hostname = '127.0.0.1';
    dead.port = String(await closedPort());
    const database = await openDatabase({ databaseUrl: url, migrate: false, replicaUrls: [url, dead.toString()] });
    try {
      await database.replicas?.check();
      expect(database.replicas?.status().map((r) => [r.healthy, r.lagMs])).toEqual([
        [false, undefined],
        [false, undefined],
      ]);
      expect(database.replicas?.pick()).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
