import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Built, buildApp } from '../src/app';
import { type Database, openDatabase } from '../src/db/client';
import { createUsersService } from '../src/features/users';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { loadConfig } from '../src/platform/config';
import { scrapeMetric } from '../test/metrics-text';
import { freshDatabase, requiredServices } from './cluster';
import { tcpProxy } from './tcp-proxy';

/**
 * Database faults (docs/decisions/database-failures.md): the app talks to PostgreSQL through a TCP proxy that the test
 * cuts and
 * restores, and the server terminates the app's connections. Requests fail fast with 503 in the
 * envelope, the app recovers by itself, and no money movement is half written.
 */
const services = await requiredServices();
const API = '/go_user/api/v1';
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };
const CONNECT_TIMEOUT_MS = 1_000;

describe.skipIf(!services)('the database going away under load', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let database: Database;
  let built: Built;
  let direct: pg.Client;
  let adminToken = '';
  let user = { id: 0, token: '' };

  const inject = async (method: 'GET' | 'POST', url: string, token?: string, payload?: object) => {
    const started = performance.now();
    const res = await built.app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json(), ms: performance.now() - started };
  };

  beforeAll(async () => {
    if (!services) return;
    fresh = await freshDatabase(services.databaseUrl);
    await (await openDatabase({ databaseUrl: fresh.url })).close();
    const target = new URL(fresh.url);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const through = new URL(fresh.url);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    database = await openDatabase({
      databaseUrl: through.toString(),
      migrate: false,
      poolSize: 10,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      onConnectionError: () => undefined,
    });
    const config = loadConfig({ INVITE_CODE_REQUIRED: 'false', LOG_LEVEL: 'silent' });
    built = await buildApp({ config, database, logger: { level: 'silent' } });
    await built.app.ready();
    await createUsersService({ db: database.db, now: () => new Date() }).bootstrapStaff([
      { ...OPERATOR, role: 'admin', variable: 'ADMIN_PASSWORD' },
    ]);
    direct = new pg.Client({ connectionString: fresh.url, application_name: 'kamai-test-checks' });
    await direct.connect();

    adminToken = (await inject('POST', `${API}/common/user/login`, undefined, OPERATOR)).body.data.token;
    await inject('POST', `${API}/common/otp/send`, undefined, { target: '9876500001' });
    const { rows } = await direct.query("select code from otp_outbox where target = '919876500001'");
    const registered = await inject('POST', `${API}/common/user/register`, undefined, {
      username: '9876500001',
      password: 'secret123',
      password2: 'secret123',
      verifyCode: rows[0].code,
    });
    const token = registered.body.data.token as string;
    user = { token, id: (await inject('GET', `${API}/user/user/detail`, token)).body.data.id };
  }, 120_000);

  afterEach(async () => {
    // No connection leaked by a failed transaction: once the traffic stopped, every one is back.
    expect(database.pool?.()).toMatchObject({ waiting: 0 });
    const pool = database.pool?.();
    expect(pool?.idle).toBe(pool?.total);
    // Nothing half-written: every posting balances, every cached balance matches its entries, and each
    // audited revenue credit has its posting and no posting lacks its audit row.
    expect(await checkLedger(database.db)).toEqual({ ok: true, problems: [] });
    const { rows } = await direct.query(`
      select (select count(*)::int from audit_log where action = 'revenue.add') as audited,
             (select count(*)::int from postings where type = 'manual_credit') as posted`);
    expect(rows[0].audited).toBe(rows[0].posted);
  });

  afterAll(async () => {
    await built?.app.close();
    await database?.close();
    await direct?.end();
    await proxy?.close();
    await fresh?.drop();
  });

  /** Until `stop()`: `workers` loops of reads and money writes; every answer is kept. */
  function load(workers: number) {
    const answers: { status: number; key: string; ms: number; postingId?: number }[] = [];
    let running = true;
    let n = 0;
    const loop = async () => {
      while (running) {
        const i = n++;
        const res =
          i % 3 === 0
            ? await inject('POST', `${API}/admin/revenue/add`, adminToken, {
                userId: user.id,
                amount: 1,
                remark: `load ${i}`,
              })
            : await inject('GET', i % 3 === 1 ? `${API}/user/user/detail` : `${API}/user/task/list`, user.token);
        answers.push({ status: res.status, key: res.body.key, ms: res.ms, postingId: res.body.data?.postingId });
        if (res.status !== 200) await new Promise((r) => setTimeout(r, 20));
      }
    };
    const done = Promise.all(Array.from({ length: workers }, loop));
    return {
      answers,
      async stop() {
        running = false;
        await done;
        return answers;
      },
    };
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function untilOk(deadlineMs: number) {
    const started = Date.now();
    for (;;) {
      const res = await inject('GET', `${API}/user/user/detail`, user.token);
      if (res.status === 200) return Date.now() - started;
      if (Date.now() - started > deadlineMs) throw new Error(`not recovered after ${deadlineMs} ms`);
      await sleep(100);
    }
  }

  it('answers 503 fast in the envelope while the database is unreachable, then recovers by itself', async () => {
    const traffic = load(6);
    await sleep(400);
    await proxy.cut();
    const cutAt = traffic.answers.length;
    await sleep(2_000);
    await proxy.restore();
    const recoveredIn = await untilOk(10_000);
    await sleep(400);
    const answers = await traffic.stop();

    expect(answers.filter((a) => ![200, 503].includes(a.status))).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((a) => a.key === 'service_unavailable')).toBe(true);
    // Fail fast: no request waits much longer than the pool's connect timeout.
    expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(CONNECT_TIMEOUT_MS + 1_500);
    expect(answers.slice(cutAt).some((a) => a.status === 503)).toBe(true);
    expect(answers.at(-1)?.status).toBe(200);
    expect(recoveredIn).toBeLessThan(10_000);
    expect((await inject('GET', '/obj/test/t2')).status).toBe(200);

    // Every credit the client was told about is in the ledger.
    const acknowledged = answers.flatMap((a) => (a.postingId ? [a.postingId] : []));
    const { rows } = await direct.query('select id::int from postings where id = any($1::bigint[])', [acknowledged]);
    expect(rows).toHaveLength(acknowledged.length);
    const errors = await scrapeMetric(built.app, 'kamai_http_server_errors_total');
    expect(errors.filter((v) => v.labels.status === '503').reduce((sum, v) => sum + v.value, 0)).toBe(refused.length);
  });

  it('gives back the connection of a transaction whose BEGIN meets a dead connection', async () => {
    const pause = () => database.db.transaction((tx) => tx.execute(sql`select pg_sleep(0.05)`));
    await Promise.all(Array.from({ length: 5 }, pause)); // five idle connections in the pool
    const cutting = proxy.cut(); // their sockets are destroyed now; the pool has not heard yet
    const failed = await Promise.all(
      Array.from({ length: 5 }, () =>
        pause().then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    await cutting;
    await proxy.restore();
    expect(failed.filter(Boolean).length).toBeGreaterThan(0);
    expect(await untilOk(5_000)).toBeLessThan(5_000);
  });

  it("survives the server terminating the app's connections, idle and busy, without a restart", async () => {
    const traffic = load(6);
    await sleep(300);
    const admin = new pg.Client({ connectionString: services?.databaseUrl });
    await admin.connect();
    const { rows } = await admin.query(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and application_name = $2',
      [fresh.name, ''],
    );
    await admin.end();
    expect(rows[0].n).toBeGreaterThan(0);
    await sleep(1_000);
    const answers = await traffic.stop();
    expect(answers.filter((a) => ![200, 503].includes(a.status))).toEqual([]);
    expect(answers.at(-1)?.status).toBe(200);
    expect(await untilOk(3_000)).toBeLessThan(3_000);
  });
});
