import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * Login throttling and hashing pools (docs/decisions/login-throttling.md, password-hashing-pools.md) against two real
 * server processes on one PostgreSQL database and one Redis: parallel
 * password guesses spread over both instances are checked no more than the lock allows (defect 2),
 * and a flood of bogus registrations over both leaves real logins alone (defect 3), with the
 * per-address registration limit counted across instances.
 */
const services = await requiredServices();
const COMMON = '/go_user/api/v1/common';
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };
const REGISTRATIONS_PER_IP = 5;

describe.skipIf(!services)('login locks and sign-up floods over two instances', () => {
  let instances: Instance[] = [];
  let sql: pg.Client;
  let dropDatabase: () => Promise<void>;
  const prefix = `kamai-rel-auth-${process.pid}-${Date.now()}:`;
  let ipSeq = 0;
  const nextIp = () => `10.${(++ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
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
      REGISTRATIONS_PER_IP_PER_HOUR: String(REGISTRATIONS_PER_IP),
    };
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await sql?.end();
    await dropDatabase?.();
    if (services) await dropRedisKeys(services.redisUrl, prefix);
  });

  let phoneSeq = 0;
  /** A user registered through the API: the code asked on one instance, registered on the other. */
  async function newUser() {
    phoneSeq += 1;
    const typed = `7${String(process.pid % 1e4).padStart(4, '0')}${String(phoneSeq).padStart(5, '0')}`;
    const ip = nextIp();
    expect((await api(at(0), 'POST', `${COMMON}/otp/send`, { body: { target: typed }, ip })).status).toBe(200);
    const { rows } = await sql.query('select code from otp_outbox where target = $1 order by id desc limit 1', [
      `91${typed}`,
    ]);
    const password = 'Real-user-pass-1';
    const registered = await api(at(1), 'POST', `${COMMON}/user/register`, {
      body: { username: typed, password, password2: password, verifyCode: rows[0].code },
      ip,
    });
    expect(registered.body.key).toBe('registered');
    return { username: `91${typed}`, password };
  }

  function tally(answers: Answer[]) {
    const statuses: Record<number, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    return statuses;
  }

  const login = (i: number, body: { username: string; password: string }, ip: string) =>
    api(at(i), 'POST', `${COMMON}/user/login`, { body, ip });

  it('checks at most 10 of 50 parallel wrong passwords from one address, spread over both instances', async () => {
    const victim = await newUser();
    const ip = nextIp();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(i, { username: victim.username, password: 'wrong-guess' }, ip)),
    );
    expect(tally(answers)).toEqual({ 400: 10, 429: 40 });
    // The owner at another address still gets in.
    expect((await login(0, victim, nextIp())).status).toBe(200);
  });

  it('checks at most 10 wrong of 79 wrong and 1 right password in parallel, spread over both instances', async () => {
    const victim = await newUser();
    const ip = nextIp();
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        login(i, { username: victim.username, password: i === 41 ? victim.password : 'wrong-guess' }, ip),
      ),
    );
    // Ten failures are checked; the right password (sent to the second instance) is checked only if
    // it came among them, and then gives its reservation back, which one more wrong guess may take.
    const counts = tally(answers);
    expect(counts[400]).toBe(10);
    expect(counts[200] ?? 0).toBeLessThanOrEqual(1);
    expect(counts[429]).toBe(70 - (counts[200] ?? 0));
    // Ten failures lock this address out of the account on both instances, even with the password…
    for (const i of [0, 1]) expect((await login(i, victim, ip)).body.key).toBe('login_locked');
    // …while the owner at another address still gets in.
    expect((await login(1, victim, nextIp())).status).toBe(200);
  });

  it('checks at most 100 of 150 parallel wrong passwords from 150 addresses, spread over both instances', async () => {
    const victim = await newUser();
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => login(i, { username: victim.username, password: 'wrong-guess' }, nextIp())),
    );
    expect(tally(answers)).toEqual({ 400: 100, 429: 50 });
    expect((await login(1, victim, nextIp())).body.key).toBe('login_locked');
  });

  it('answers every real login during a flood of 400 bogus registrations over both instances', async () => {
    const real = await Promise.all(Array.from({ length: 5 }, () => newUser()));
    const flood = Array.from({ length: 400 }, (_, i) =>
      api(at(i), 'POST', `${COMMON}/user/register`, {
        body: {
          username: `6${String(i).padStart(9, '0')}`,
          password: 'Flood-pass-1',
          password2: 'Flood-pass-1',
          verifyCode: '123456',
        },
        ip: nextIp(),
      }),
    );
    const logins = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login(i, real[i % real.length] as (typeof real)[number], nextIp())),
    );
    const bogus = await Promise.all(flood);
    expect(tally(logins)).toEqual({ 200: 10 });
    expect(new Set(bogus.map((a) => a.body.key))).toEqual(new Set(['verification_code_not_found']));
  });

  it('limits registrations per address across both instances (counted in Redis)', async () => {
    const ip = nextIp();
    const attempt = (i: number) =>
      api(at(i), 'POST', `${COMMON}/user/register`, {
        body: {
          username: `6${String(900 + i).padStart(9, '0')}`,
          password: 'Some-pass-1',
          password2: 'Some-pass-1',
          verifyCode: '123456',
        },
        ip,
      });
    for (let i = 0; i < REGISTRATIONS_PER_IP; i += 1)
      expect((await attempt(i)).body.key).toBe('verification_code_not_found');
    // Each instance saw 2 or 3, under the limit on its own: only a shared count refuses now.
    expect((await attempt(0)).body).toMatchObject({ code: 429, key: 'too_many_requests' });
    expect((await attempt(1)).body).toMatchObject({ code: 429, key: 'too_many_requests' });
  });
});
