import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import {
  type Answer,
  api,
  dropRedisKeys,
  freshDatabase,
  type Instance,
  requiredServices,
  startInstance,
} from './cluster';

/**
 * Two real server processes on one PostgreSQL database and one Redis, requests spread over both
 * (issue 7, multi-instance): money is credited once however the requests are spread, and the
 * per-address limits count across instances. Withdrawals join when that feature lands.
 */
const services = await requiredServices();
const USER = '/go_user/api/v1/user';
const COMMON = '/go_user/api/v1/common';
const ADMIN = '/go_user/api/v1/admin';
const WS = '/obj/ws/account';
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };

describe.skipIf(!services)('two instances on one PostgreSQL database and one Redis', () => {
  let instances: Instance[] = [];
  let database: Database;
  /** Plain SQL on the shared database: the sandbox's outbox, counts. */
  let sql: pg.Client;
  let dropDatabase: () => Promise<void>;
  const prefix = `kamai-rel-${process.pid}-${Date.now()}:`;
  let adminToken = '';
  let ipSeq = 0;
  /** A new client address for each registration: the per-address code limit is low in this suite. */
  const nextIp = () => `10.9.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`;
  const at = (i: number) => instances[i % instances.length]?.url as string;

  beforeAll(async () => {
    if (!services) return;
    const fresh = await freshDatabase(services.databaseUrl);
    dropDatabase = fresh.drop;
    const env = {
      DATABASE_URL: fresh.url,
      DATABASE_POOL_SIZE: '10',
      REDIS_URL: services.redisUrl,
      REDIS_KEY_PREFIX: prefix,
      ADMIN_USERNAME: OPERATOR.username,
      ADMIN_PASSWORD: OPERATOR.password,
      TRUST_PROXY: 'true',
      INVITE_CODE_REQUIRED: 'false',
      LOGIN_FAILURES_PER_IP: '6',
      OTP_SENDS_PER_IP_PER_HOUR: '4',
    };
    // Both at once on an empty database: one applies the migrations and creates the operator, the other waits.
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    database = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
    adminToken = (await api(at(0), 'POST', `${COMMON}/user/login`, { body: OPERATOR })).body.data.token;
  }, 120_000);

  afterEach(async () => {
    expect(await checkLedger(database.db)).toEqual({ ok: true, problems: [] });
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await sql?.end();
    await database?.close();
    await dropDatabase?.();
    if (services) await dropRedisKeys(services.redisUrl, prefix);
  });

  /** Asks for a code on one instance, registers on the other; the code is read where the sandbox keeps it. */
  async function newUser() {
    const typed = `9${String(Date.now() % 1e9).padStart(9, '0')}`.slice(0, 10);
    const ip = nextIp();
    expect((await api(at(0), 'POST', `${COMMON}/otp/send`, { body: { target: typed }, ip })).status).toBe(200);
    const { rows } = await sql.query('select code from otp_outbox where target = $1 order by id desc limit 1', [
      `91${typed}`,
    ]);
    const registered = await api(at(1), 'POST', `${COMMON}/user/register`, {
      body: {
        username: typed,
        password: 'secret123',
        password2: 'secret123',
        verifyCode: rows[0].code,
        inviteCode: '',
      },
      ip,
    });
    expect(registered.body.key).toBe('registered');
    await new Promise((r) => setTimeout(r, 2)); // a distinct phone number next time
    return { token: registered.body.data.token as string, username: `91${typed}` };
  }

  /** The same request `n` times at once, alternating between the instances. */
  function spread(n: number, request: (base: string) => Promise<Answer>) {
    return Promise.all(Array.from({ length: n }, (_, i) => request(at(i))));
  }

  const balance = async (token: string) =>
    (await api(at(0), 'GET', `${USER}/user/detail`, { token })).body.data.balance;

  it('started both on an empty database: migrated once, one operator account', async () => {
    for (const instance of instances) expect((await api(instance.url, 'GET', '/obj/test/t2')).status).toBe(200);
    const { rows } = await sql.query("select count(*)::int as n from users where role = 'admin'");
    expect(rows[0].n).toBe(1);
  });

  it('credits a task once out of 20 parallel claims spread over both instances', async () => {
    const { token } = await newUser();
    expect((await api(at(1), 'POST', `${USER}/intro/viewed`, { body: {}, token })).status).toBe(200);
    const before = await balance(token);
    const claims = await spread(20, (base) => api(base, 'POST', `${USER}/task/finish`, { body: { taskId: 4 }, token }));
    const ok = claims.filter((c) => c.status === 200);
    expect(ok).toHaveLength(1);
    expect(claims.filter((c) => c.status !== 200).every((c) => c.body.key === 'task_already_claimed')).toBe(true);
    const reward = Number(ok[0]?.body.data.reward);
    expect(Number(await balance(token))).toBeCloseTo(Number(before) + reward, 2);
  });

  it('settles a linked number once out of 20 parallel settlements spread over both instances', async () => {
    const { token } = await newUser();
    expect(
      (await api(at(0), 'POST', `${ADMIN}/ws/rate/set`, { body: { hourlyRate: 3600 }, token: adminToken })).status,
    ).toBe(200);
    const digits = `8${String(Date.now() % 1e9).padStart(9, '0')}`;
    expect((await api(at(0), 'POST', `${WS}/login/genPhoneCode`, { body: { phone: digits }, token })).status).toBe(200);
    expect(
      (await api(at(1), 'POST', `${ADMIN}/ws/complete`, { body: { phone: digits }, token: adminToken })).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 2_500)); // online for a while: ₹1 a second
    const before = Number(await balance(token));
    const settlements = await spread(20, (base) => api(base, 'PUT', `${WS}/settlement/91${digits}`, { token }));
    const ok = settlements.filter((s) => s.status === 200);
    expect(ok).toHaveLength(1);
    expect(settlements.filter((s) => s.status !== 200).every((s) => s.body.key === 'linked_settle_wait')).toBe(true);
    const paid = Number(ok[0]?.body.data.amount);
    expect(paid).toBeGreaterThanOrEqual(2);
    expect(Number(await balance(token))).toBeCloseTo(before + paid, 2);
  });

  it('throttles one address across both instances (per-IP failures counted in Redis)', async () => {
    const ip = '10.8.0.1';
    for (let i = 0; i < 6; i++) {
      const wrong = await api(at(i), 'POST', `${COMMON}/user/login`, {
        body: { username: `nobody${i}@kamai.test`, password: 'guess' },
        ip,
      });
      expect(wrong.body.key).toBe('incorrect_username_or_password');
    }
    // Each instance saw 3 failures, under the limit of 6 on its own: only a shared count refuses now.
    for (const instance of instances) {
      const locked = await api(instance.url, 'POST', `${COMMON}/user/login`, { body: OPERATOR, ip });
      expect(locked).toMatchObject({ status: 429, body: { code: 429, key: 'login_locked' } });
    }
    expect((await api(at(1), 'POST', `${COMMON}/user/login`, { body: OPERATOR, ip: '10.8.0.2' })).status).toBe(200);
  });

  it('limits the codes one address may ask for across both instances', async () => {
    const ip = '10.7.0.1';
    const send = (i: number) =>
      api(at(i), 'POST', `${COMMON}/otp/send`, { body: { target: `limit${i}@kamai.test` }, ip });
    for (let i = 0; i < 4; i++) expect((await send(i)).status).toBe(200);
    expect((await send(4)).body.key).toBe('otp_rate_limited');
    expect((await send(5)).body.key).toBe('otp_rate_limited');
  });
});
