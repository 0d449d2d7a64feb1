import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import {
  api,
  applyAlone,
  dropRedisKeys,
  freshDatabase,
  type Instance,
  requiredServices,
  startInstance,
} from './cluster';

/**
 * Account lifecycle over HTTP on two real server processes (docs/decisions/account-deletion.md): a deleted account is
 * not
 * revived by any operator route or login on either instance, a credit racing the deletion never lands
 * after it, and the same phone registered again works but counts as no new friend and earns no
 * first-time reward.
 */
const services = await requiredServices();
const USER = '/go_user/api/v1/user';
const COMMON = '/go_user/api/v1/common';
const ADMIN = '/go_user/api/v1/admin';
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };

describe.skipIf(!services)('account lifecycle on two instances', () => {
  let instances: Instance[] = [];
  let database: Database;
  let sql: pg.Client;
  let dropDatabase: () => Promise<void>;
  const prefix = `kamai-rel-life-${process.pid}-${Date.now()}:`;
  let adminToken = '';
  let ipSeq = 0;
  const nextIp = () => `10.22.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`;
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
      AUTH_CODE_FAILURE_DELAY_MS: '0',
      INVITE_CODE_REQUIRED: 'false',
    };
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    database = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
    adminToken = (await api(at(0), 'POST', `${COMMON}/user/login`, { body: OPERATOR })).body.data.token;
    const rule = await api(at(1), 'POST', `${ADMIN}/settings/set`, {
      body: { risk: { qualifiedInvite: 'registration' } },
      token: adminToken,
    });
    // Proposed (dual control): the only admin applies it once its delay has passed.
    expect((await applyAlone(at(0), fresh.url, rule, adminToken)).status).toBe(200);
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

  /** Code from one instance, registration on the other. */
  async function register(typed: string, inviteCode: string, on: number) {
    const ip = nextIp();
    expect((await api(at(on + 1), 'POST', `${COMMON}/otp/send`, { body: { target: typed }, ip })).status).toBe(200);
    const { rows } = await sql.query('select code from otp_outbox where target = $1 order by id desc limit 1', [
      `91${typed}`,
    ]);
    const registered = await api(at(on), 'POST', `${COMMON}/user/register`, {
      body: { username: typed, password: 'secret123', password2: 'secret123', verifyCode: rows[0].code, inviteCode },
      ip,
      headers: { 'x-device-id': crypto.randomUUID() },
    });
    expect(registered.body.key).toBe('registered');
    const token = registered.body.data.token as string;
    const detail = (await api(at(on), 'GET', `${USER}/user/detail`, { token })).body.data;
    return { token, id: detail.id as number, inviteCode: detail.inviteCode as string, balance: detail.balance };
  }

  const phone = (n: number) => `9${String((Date.now() + n) % 1e9).padStart(9, '0')}`;

  it('a deleted account stays deleted on both instances; its phone comes back as no new friend', async () => {
    const inviter = await register(phone(1), '', 0);
    const typed = phone(2);
    const first = await register(typed, inviter.inviteCode, 1);
    expect(first.balance).toBe('5.00');

    // A credit racing the deletion: it lands before it (and is forfeited with the balance) or is refused.
    const [deleted, credit] = await Promise.all([
      api(at(0), 'POST', `${USER}/account/delete`, { body: { password: 'secret123' }, token: first.token }),
      api(at(1), 'POST', `${ADMIN}/revenue/add`, {
        body: { userId: first.id, amount: '50', remark: 'race' },
        token: adminToken,
      }),
    ]);
    expect(deleted.status).toBe(200);
    expect([200, 409]).toContain(credit.status);
    const audit = await sql.query(
      "select after->>'balanceLeftPaise' as left from audit_log where action = 'account.delete' and target = $1",
      [`user:${first.id}`],
    );
    const wallet = await sql.query("select balance::text from accounts where user_id = $1 and kind = 'wallet'", [
      first.id,
    ]);
    expect(wallet.rows[0].balance).toBe(audit.rows[0].left);

    for (const [i, [path, body]] of (
      [
        ['user/freeze', { userId: first.id, frozen: false }],
        ['user/role', { userId: first.id, role: 'admin' }],
        ['user/resetpass', { userId: first.id, password: 'Fresh-start-2026' }],
        ['revenue/add', { userId: first.id, amount: '50', remark: 'again' }],
      ] as const
    ).entries()) {
      const res = await api(at(i), 'POST', `${ADMIN}/${path}`, { body, token: adminToken });
      expect(res).toMatchObject({ status: 409, body: { key: 'account_deleted_final' } });
    }
    for (const i of [0, 1]) {
      const login = await api(at(i), 'POST', `${COMMON}/user/login`, {
        body: { username: `deleted-${first.id}`, password: 'Fresh-start-2026' },
        ip: nextIp(),
      });
      expect(login.status).toBe(400);
    }

    const again = await register(typed, inviter.inviteCode, 0);
    expect(again.balance).toBe('0.00');
    const invites = await api(at(1), 'GET', `${USER}/invite/list?limit=10`, { token: inviter.token });
    expect(invites.body.data.totals.qualified).toBe(1);
    const login = await api(at(1), 'POST', `${COMMON}/user/login`, {
      body: { username: typed, password: 'secret123' },
      ip: nextIp(),
    });
    expect(login.status).toBe(200);
  });
});
