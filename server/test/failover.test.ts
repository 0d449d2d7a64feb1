import { once } from 'node:events';
import { createServer, type Server, Socket } from 'node:net';
import { LOCALES, MESSAGES } from '@kamai/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { parseDatabaseUrl } from '../src/db/database-url';
import { accounts, entries, postings } from '../src/db/schema';
import { ConfigError, loadConfig } from '../src/platform/config';
import { createJobRunner } from '../src/platform/jobs';
import { createTestContext, type TestContext, testDatabase } from './helpers';

/**
 * Kamai's side of a database failover (docs/decisions/database-failover.md): what a client sees while the primary is
 * read-only or
 * away, the libpq-style host lists, readiness, the job runner's backoff, the start-up wait, and
 * Idempotency-Key on the operator routes that move money. The whole failover, with pg_auto_failover
 * and HAProxy, is server/reliability/failover.test.ts.
 */

const API = '/go_user/api/v1';
const serverUrl = process.env.DATABASE_URL;
const onServer = Boolean(serverUrl);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

async function currentDatabase(): Promise<string> {
  const result = await ctx.db.execute<{ name: string }>(sql`select current_database() as name`);
  return (result as unknown as { rows: { name: string }[] }).rows[0]?.name ?? '';
}

/** On the server: a connection of its own to run `alter database` and terminate the test's backends. */
async function serverAdmin() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  return admin;
}

describe('a read-only or restarting database', () => {
  it('answers a write 503 with Retry-After, drops the read-only connection from the pool, and recovers', async () => {
    const user = await ctx.newUser();
    const admin = await ctx.adminToken();
    const credit = async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `${API}/admin/revenue/add`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { userId: user.id, amount: '5', remark: 'failover' },
      });
      return { status: res.statusCode, headers: res.headers, body: res.json() };
    };
    const ready = async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/obj/test/t2' });
      return { status: res.statusCode, headers: res.headers, body: res.json() };
    };
    const name = await currentDatabase();
    const server = onServer ? await serverAdmin() : undefined;
    try {
      if (server) {
        // As a promoted-but-not-yet-writable or demoted node is: every new session read-only; the old
        // sessions are cut, as a failover cuts them (57P01 to the pooled connections).
        await server.query(`alter database ${name} set default_transaction_read_only = on`);
        await server.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      } else {
        await ctx.db.execute(sql`set default_transaction_read_only = on`);
      }
      const answers = [await credit(), await credit(), await credit()];
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('2');
        expect(res.body).toMatchObject({ code: 503, key: 'service_unavailable' });
      }
      if (onServer) {
        // Every connection that met the read-only database (25006) or was terminated (57P01) was
        // destroyed, not kept: the pool holds none of them.
        expect(ctx.database.pool?.().total).toBe(0);
      }
      // Readiness (the load balancer's check) fails on a read-only database.
      const readiness = await ready();
      expect(readiness.status).toBe(503);
      expect(readiness.headers['retry-after']).toBe('2');
      expect(readiness.body.key).toBe('service_unavailable');
    } finally {
      if (server) {
        await server.query(`alter database ${name} reset default_transaction_read_only`);
        // The promoted node's sessions are new ones (the readiness check's read-only one is cut).
        await server.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
        await server.end();
      } else {
        await ctx.db.execute(sql`set default_transaction_read_only = off`);
      }
    }
    // Back by itself: a session the pool opened while the setting was being reset may still be
    // read-only; its write answers 503 and it is dropped, so within a few writes one is made.
    let res = await credit();
    for (let attempt = 1; attempt < 3 && res.status === 503; attempt += 1) res = await credit();
    expect(res.status).toBe(200);
    expect((await ready()).status).toBe(200);
  });

  it('answers in all six locales', async () => {
    const texts = LOCALES.map((locale) => MESSAGES[locale].service_unavailable);
    expect(texts.every(Boolean)).toBe(true);
    // Really translated: six different texts.
    expect(new Set(texts).size).toBe(LOCALES.length);
  });
});

describe('DATABASE_URL with several hosts (libpq)', () => {
  it('reads host lists in the authority and in ?host=, with target_session_attrs', () => {
    const a = parseDatabaseUrl(
      'postgres://kamai:pw@h1:5441,h2:5442/kamai?target_session_attrs=read-write&sslmode=disable',
    );
    expect(a.targetSessionAttrs).toBe('read-write');
    expect(a.hosts.map((h) => [h.host, h.port])).toEqual([
      ['h1', 5441],
      ['h2', 5442],
    ]);
    expect(a.hosts[1]?.url).toBe('postgres://kamai:pw@h2:5442/kamai?sslmode=disable');
    const b = parseDatabaseUrl('postgresql:///kamai?host=a,b&port=1,2&target_session_attrs=primary');
    expect(b.hosts.map((h) => `${h.host}:${h.port}`)).toEqual(['a:1', 'b:2']);
    expect(parseDatabaseUrl('postgres://u@h/db').hosts[0]?.port).toBe(5432);
  });

  it.each([
    ['postgres://u@h1:5432,h2:notaport/db', /port "notaport"/],
    ['postgres://u@h1,,h2/db', /empty host/],
    ['postgres://u@h/db?target_session_attrs=standby', /target_session_attrs=standby is not usable/],
    ['postgres://u@h/db?host=a,b&port=1,2,3', /one port or one per host/],
    ['mysql://u@h/db', /postgres/],
  ])('refuses %s at start with a line naming DATABASE_URL', (url, why) => {
    let error: unknown;
    try {
      loadConfig({ DATABASE_URL: url });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const line = String((error as Error).message)
      .split('\n')
      .find((l) => l.includes('DATABASE_URL'));
    expect(line).toMatch(why);
  });

  it.skipIf(!onServer)('reaches the writable host when it is listed second', async () => {
    const url = new URL(serverUrl ?? '');
    // The first host answers nothing (a dead primary); the second is the server.
    const dead = await closedPort();
    const list = `postgres://${url.username}@127.0.0.1:${dead},${url.hostname}:${url.port || 5432}${url.pathname}?target_session_attrs=read-write`;
    const database = await openDatabase({ databaseUrl: list, migrate: false });
    try {
      const result = await database.db.execute<{ port: number }>(sql`select inet_server_port() as port`);
      expect((result as unknown as { rows: { port: number }[] }).rows[0]?.port).toBe(Number(url.port || 5432));
    } finally {
      await database.close();
    }
  });

  it.skipIf(!onServer)('keeps no connection to a read-only host (target_session_attrs=read-write)', async () => {
    const name = await currentDatabase();
    const server = await serverAdmin();
    const url = new URL(serverUrl ?? '');
    url.pathname = `/${name}`;
    url.searchParams.set('target_session_attrs', 'read-write');
    try {
      await server.query(`alter database ${name} set default_transaction_read_only = on`);
      await expect(openDatabase({ databaseUrl: url.toString(), migrate: false })).rejects.toThrow(
        /no host of DATABASE_URL is usable \(read-write\).*read-only/,
      );
      // `any` takes it as it is.
      url.searchParams.set('target_session_attrs', 'any');
      const database = await openDatabase({ databaseUrl: url.toString(), migrate: false });
      await database.close();
    } finally {
      await server.query(`alter database ${name} reset default_transaction_read_only`);
      await server.end();
    }
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('start-up', () => {
  it.skipIf(!onServer)('waits for a database that comes up late, with backoff', async () => {
    const target = new URL(serverUrl ?? '');
    const port = await closedPort();
    const late = new URL(target);
    late.hostname = '127.0.0.1';
    late.port = String(port);
    const waits: number[] = [];
    let proxy: Server | undefined;
    const opening = openDatabase({
      databaseUrl: late.toString(),
      migrate: false,
      waitMs: 60_000,
      onWait: ({ retryInMs }) => {
        waits.push(retryInMs);
        // The database "comes up" after the third failed try: a proxy to the server opens on the port.
        if (waits.length === 3 && !proxy) {
          proxy = createServer((client) => {
            const upstream = new Socket();
            upstream.connect(Number(target.port || 5432), target.hostname);
            client.pipe(upstream).pipe(client);
            client.on('error', () => upstream.destroy());
            upstream.on('error', () => client.destroy());
          }).listen(port, '127.0.0.1');
        }
      },
    });
    const database = await opening;
    try {
      expect(waits.length).toBeGreaterThanOrEqual(3);
      // Exponential: each pause's ceiling doubles (jitter takes it to between half and all of it).
      expect(waits[2]).toBeGreaterThan(waits[0] ?? 0);
      await database.db.execute(sql`select 1`);
    } finally {
      await database.close();
      proxy?.close();
    }
  });

  it.skipIf(!onServer)('gives up after DATABASE_WAIT_SECONDS', async () => {
    const late = new URL(serverUrl ?? '');
    late.hostname = '127.0.0.1';
    late.port = String(await closedPort());
    await expect(openDatabase({ databaseUrl: late.toString(), migrate: false, waitMs: 0 })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it('takes DATABASE_WAIT_SECONDS from the environment', () => {
    expect(loadConfig({}).DATABASE_WAIT_SECONDS).toBe(60);
    expect(loadConfig({ DATABASE_WAIT_SECONDS: '5' }).DATABASE_WAIT_SECONDS).toBe(5);
    expect(() => loadConfig({ DATABASE_WAIT_SECONDS: 'soon' })).toThrow(/DATABASE_WAIT_SECONDS/);
  });
});

describe('the job runner while the database fails', () => {
  it('backs off, logs one line per failure streak, and recovers', async () => {
    const database = await testDatabase();
    const lines: string[] = [];
    const log = {
      error: (_fields: unknown, msg: string) => lines.push(`error ${msg}`),
      warn: (_fields: unknown, msg: string) => lines.push(`warn ${msg}`),
      info: () => undefined,
    } as unknown as FastifyBaseLogger;
    let claims = 0;
    const runner = createJobRunner({
      db: database.db,
      // Called once per claim (no periodic tasks here): the count of claims tried.
      now: () => {
        claims += 1;
        return new Date();
      },
      log,
      leaseMs: 60_000,
      workers: 2,
      handlers: { 'test.failover': async () => undefined },
    });
    // Every claim now fails (as it does while the database is away or read-only).
    await database.db.execute(sql`alter table jobs rename to jobs_away`);
    try {
      runner.start();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const inASecond = claims;
      // Without the backoff the two loops claimed thousands of times a second (19,364 log lines in 30 s;
      // docs/decisions/job-runner-idle.md).
      expect(inASecond).toBeLessThanOrEqual(8);
      expect(inASecond).toBeGreaterThanOrEqual(2);
      expect(lines.filter((l) => l.startsWith('error'))).toEqual([
        'error job runner failing: backing off until the database answers again',
      ]);
    } finally {
      await database.db.execute(sql`alter table jobs_away rename to jobs`);
    }
    for (let i = 0; i < 200 && !lines.includes('warn job runner recovered'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await runner.stop();
    await database.close();
    expect(lines).toEqual([
      'error job runner failing: backing off until the database answers again',
      'warn job runner recovered',
    ]);
  });
});

describe('Idempotency-Key on the operator routes that move money', () => {
  const creditedPostings = async (userId: number) => {
    const [row] = await ctx.db
      .select({ n: sql<number>`count(distinct ${postings.id})::int` })
      .from(postings)
      .innerJoin(entries, eq(entries.postingId, postings.id))
      .innerJoin(accounts, eq(accounts.id, entries.accountId))
      .where(sql`${postings.type} = 'manual_credit' and ${accounts.userId} = ${userId}`);
    return row?.n ?? 0;
  };

  it('a retried revenue/add with the same key credits once and answers as the first time', async () => {
    const user = await ctx.newUser();
    const admin = await ctx.adminToken();
    const body = { userId: user.id, amount: '12.50', remark: 'retry' };
    const headers = { 'idempotency-key': `credit-${user.id}` };
    const first = await ctx.post(`${API}/admin/revenue/add`, body, { token: admin, headers });
    expect(first.status).toBe(200);
    const again = await ctx.post(`${API}/admin/revenue/add`, body, { token: admin, headers });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await creditedPostings(user.id)).toBe(1);
    // Another body under the same key is refused.
    const other = await ctx.post(`${API}/admin/revenue/add`, { ...body, amount: '13' }, { token: admin, headers });
    expect(other.status).toBe(409);
    expect(other.body.key).toBe('idempotency_key_reused');
    // Without a key each call is a new credit.
    await ctx.post(`${API}/admin/revenue/add`, body, { token: admin });
    expect(await creditedPostings(user.id)).toBe(2);
  });

  it('a parallel burst with one key credits once, every answer the same', async () => {
    const user = await ctx.newUser();
    const admin = await ctx.adminToken();
    const body = { userId: user.id, amount: '3', remark: 'burst' };
    const headers = { 'idempotency-key': `burst-${user.id}` };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => ctx.post(`${API}/admin/revenue/add`, body, { token: admin, headers })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const postingIds = new Set(answers.map((a) => a.body.data.postingId));
    expect(postingIds.size).toBe(1);
    expect(await creditedPostings(user.id)).toBe(1);
    expect((await ctx.checkLedger()).ok ?? true).toBeTruthy();
  });

  it('rejects a malformed key with the envelope', async () => {
    const user = await ctx.newUser();
    const admin = await ctx.adminToken();
    const res = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: user.id, amount: '1', remark: 'x' },
      { token: admin, headers: { 'idempotency-key': 'has space' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('idempotency_key_invalid');
  });
});
