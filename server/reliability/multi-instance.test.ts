import { PAYOUT_CALLBACK_ACK } from '@kamai/contract';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { signParams } from '../src/features/payouts/payouts.signature';
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
 * (docs/decisions/reliability-suite.md): money is credited once however the requests are spread, and the
 * per-address limits count across instances, a balance is spent once, a withdrawal is approved,
 * paid out and settled once however the requests and the gateway's callbacks are spread.
 */
const services = await requiredServices();
const USER = '/go_user/api/v1/user';
const COMMON = '/go_user/api/v1/common';
const ADMIN = '/go_user/api/v1/admin';
const WS = '/obj/ws/account';
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };
const NOTIFY = `${COMMON}/pay/notify/masterpay`;
const SECRET = 'multi-instance-gateway-secret-0123';

describe.skipIf(!services)('two instances on one PostgreSQL database and one Redis', () => {
  let instances: Instance[] = [];
  let database: Database;
  /** Plain SQL on the shared database: the sandbox's outbox, counts. */
  let sql: pg.Client;
  let dropDatabase: () => Promise<void>;
  const prefix = `kamai-rel-${process.pid}-${Date.now()}:`;
  let adminToken = '';
  /** A second admin, made in the database the way the deployment makes its first staff: dual control's second pair of eyes. */
  let second = { id: 0, token: '', username: '' };
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
      // The gateway's callbacks are signed by the test (from the sandbox's own record of the payout);
      // the sandbox would report only after an hour.
      PAYOUT_GATEWAY_SECRET: SECRET,
      SANDBOX_PAYOUT_DELAY_MS: '3600000',
    };
    // Both at once on an empty database: one applies the migrations and creates the operator, the other waits.
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    database = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
    adminToken = (await api(at(0), 'POST', `${COMMON}/user/login`, { body: OPERATOR })).body.data.token;
    const made = await newUser();
    const { rows } = await sql.query("update users set role = 'admin' where username = $1 returning id", [
      made.username,
    ]);
    second = { ...made, id: rows[0].id as number };
    // Many withdrawals a day per user: the refusals below are the balance's, not the daily count's.
    // A higher limit is proposed (docs/decisions/dual-control.md): the second admin applies it on the other instance.
    const limits = await api(at(1), 'POST', `${ADMIN}/settings/set`, {
      body: { withdrawal: { dailyCount: 100 } },
      token: adminToken,
    });
    expect(limits.body.data.change.state).toBe('pending');
    const applied = await api(at(0), 'POST', `${ADMIN}/control/apply`, {
      body: { id: limits.body.data.change.id },
      token: second.token,
    });
    expect(applied.status).toBe(200);
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

  /** A user with a default UPI account and exactly `rupees` in the wallet. */
  async function payee(rupees: number) {
    const user = await newUser();
    const id = (await api(at(1), 'GET', `${USER}/user/detail`, { token: user.token })).body.data.id as number;
    const bound = await api(at(0), 'POST', `${USER}/wdaccount/bind`, {
      body: { accountNo: `u${id}@okaxis`, accountName: 'Asha Kumari' },
      token: user.token,
    });
    expect(bound.status).toBe(200);
    const topUp = rupees - Number(await balance(user.token));
    const funded = await api(at(1), 'POST', `${ADMIN}/revenue/add`, {
      body: { userId: id, amount: topUp.toFixed(2), remark: 'reliability funds' },
      token: adminToken,
    });
    expect(funded.status).toBe(200);
    expect(Number(await balance(user.token))).toBe(rupees);
    return { ...user, id };
  }

  /** The user's wallet and hold in paise, read from the shared database. */
  async function accountsOf(userId: number) {
    const { rows } = await sql.query(
      "select kind, balance::text as balance from accounts where user_id = $1 and kind in ('wallet', 'hold')",
      [userId],
    );
    const of = (kind: string) => BigInt(rows.find((r) => r.kind === kind)?.balance ?? 0);
    return { wallet: of('wallet'), hold: of('hold') };
  }

  const count = async (query: string, params: unknown[]) =>
    (await sql.query(`select count(*)::int as n from ${query}`, params)).rows[0].n as number;

  const withdraw = (base: string, token: string, amount: number, idempotencyKey?: string) =>
    api(base, 'POST', `${USER}/withdraw/add`, {
      body: { amount },
      token,
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });

  const approve = (base: string, id: number) =>
    api(base, 'POST', `${ADMIN}/withdraw/review`, { body: { id, action: 'approve', reason: '' }, token: adminToken });

  async function waitFor(what: string, done: () => Promise<boolean>, timeoutMs = 30_000) {
    const until = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > until) throw new Error(`still waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('started both on an empty database: migrated once, one operator account', async () => {
    for (const instance of instances) expect((await api(instance.url, 'GET', '/obj/test/t2')).status).toBe(200);
    const { rows } = await sql.query("select count(*)::int as n from users where role = 'admin' and id <> $1", [
      second.id,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('lets no admin alone raise the four-eyes thresholds, take over another admin or promote an account, over both instances', async () => {
    const raise = await api(at(0), 'POST', `${ADMIN}/settings/set`, {
      body: { risk: { creditApprovalAbove: '500000', secondApprovalAbove: '500000' } },
      token: adminToken,
    });
    expect(raise.body.data.change.state).toBe('pending');
    const own = await api(at(1), 'POST', `${ADMIN}/control/apply`, {
      body: { id: raise.body.data.change.id },
      token: adminToken,
    });
    expect(own.body.key).toBe('control_second_admin_required');
    const shown = await api(at(1), 'GET', `${ADMIN}/settings/get`, { token: adminToken });
    expect(shown.body.data.risk).toMatchObject({ creditApprovalAbove: '10000.00', secondApprovalAbove: '10000.00' });

    const reset = await api(at(1), 'POST', `${ADMIN}/user/resetpass`, {
      body: { userId: second.id, password: 'taken-over-42' },
      token: adminToken,
    });
    expect(reset.body.key).toBe('staff_password_by_code');
    const login = await api(at(0), 'POST', `${COMMON}/user/login`, {
      body: { username: second.username, password: 'taken-over-42' },
      ip: nextIp(),
    });
    expect(login.status).not.toBe(200);

    const alt = await newUser();
    const altId = (await api(at(0), 'GET', `${USER}/user/detail`, { token: alt.token })).body.data.id as number;
    const grant = await api(at(0), 'POST', `${ADMIN}/user/role`, {
      body: { userId: altId, role: 'admin' },
      token: adminToken,
    });
    expect(grant.body.data).toMatchObject({ role: 'user', change: { state: 'pending' } });
    for (const token of [adminToken, alt.token]) {
      const tried = await api(at(1), 'POST', `${ADMIN}/control/apply`, {
        body: { id: grant.body.data.change.id },
        token,
      });
      expect(tried.status).not.toBe(200);
    }
    const { rows } = await sql.query('select role from users where id = $1', [altId]);
    expect(rows[0].role).toBe('user');
    for (const change of [raise, grant]) {
      const cancelled = await api(at(0), 'POST', `${ADMIN}/control/cancel`, {
        body: { id: change.body.data.change.id },
        token: second.token,
      });
      expect(cancelled.body.data.state).toBe('cancelled');
    }
  });

  it('credits a task once out of 20 parallel claims spread over both instances', async () => {
    const { token } = await newUser();
    // Task 4 needs the introduction's video played: a one-second video, reported before and after a second.
    const set = await api(at(0), 'POST', `${ADMIN}/intro/set`, {
      body: { videoUrl: '/uploads/intro.mp4', videoSeconds: 1 },
      token: adminToken,
    });
    expect(set.status).toBe(200);
    expect((await api(at(1), 'POST', `${USER}/intro/progress`, { body: { watchedSeconds: 0 }, token })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const watched = await api(at(0), 'POST', `${USER}/intro/progress`, { body: { watchedSeconds: 1 }, token });
    expect(watched.body.data.complete).toBe(true);
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
    // A higher rate is proposed; the second admin applies it on the other instance.
    const rate = await api(at(0), 'POST', `${ADMIN}/ws/rate/set`, { body: { hourlyRate: 3600 }, token: adminToken });
    const change = rate.body.data.change;
    if (change) {
      const applied = await api(at(1), 'POST', `${ADMIN}/control/apply`, {
        body: { id: change.id },
        token: second.token,
      });
      expect(applied.status).toBe(200);
    }
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

  it.each([
    [1, 1000],
    [2, 400],
  ])(
    'accepts %i of 50 parallel withdrawals that each take the whole balance, spread over both instances',
    async (fits, amount) => {
      const user = await payee(fits * amount);
      const answers = await spread(50, (base) => withdraw(base, user.token, amount));
      const accepted = answers.filter((a) => a.status === 200);
      expect(accepted).toHaveLength(fits);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused.map((a) => a.body.key)).toEqual(refused.map(() => 'insufficient_balance'));
      expect(await accountsOf(user.id)).toEqual({ wallet: 0n, hold: BigInt(fits * amount) * 100n });
      expect(await count("withdrawals where user_id = $1 and state = 'pending'", [user.id])).toBe(fits);
      expect(
        await count("postings where type = 'withdrawal_hold' and (ref->>'withdrawalId')::bigint = any($1)", [
          accepted.map((a) => a.body.data.id),
        ]),
      ).toBe(fits);
    },
  );

  it('makes one withdrawal of the same Idempotency-Key sent to both instances at once', async () => {
    const user = await payee(1000);
    const answers = await spread(10, (base) => withdraw(base, user.token, 300, `same-key-${user.id}`));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    expect(await count('withdrawals where user_id = $1', [user.id])).toBe(1);
    expect(await accountsOf(user.id)).toEqual({ wallet: 70_000n, hold: 30_000n });
  });

  it('approves a withdrawal once out of 10 concurrent approvals over both instances, pays it out once and settles it once from 20 concurrent callbacks', async () => {
    const user = await payee(500);
    const created = await withdraw(at(1), user.token, 500);
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;

    const approvals = await spread(10, (base) => approve(base, id));
    expect(approvals.filter((a) => a.status === 200)).toHaveLength(1);
    const conflicts = approvals.filter((a) => a.status !== 200);
    expect(conflicts.map((a) => a.body.key)).toEqual(conflicts.map(() => 'withdrawal_state_conflict'));
    expect(await count("withdrawal_history where withdrawal_id = $1 and to_state = 'approved'", [id])).toBe(1);
    expect(await count("audit_log where action = 'withdrawal.approve' and target = $1", [`withdrawal:${id}`])).toBe(1);
    expect(await count('jobs where dedupe_key = $1', [`payout:dispatch:${id}`])).toBe(1);

    // One of the two job runners hands it to the gateway: one payout there, dispatched once.
    await waitFor(
      'the dispatch',
      async () => (await count("withdrawals where id = $1 and state = 'processing'", [id])) === 1,
    );
    const { rows: payouts } = await sql.query('select * from sandbox_payouts where order_no = $1', [String(id)]);
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ amount: '50000', dispatch_count: 1, status: 'success' });

    // The gateway's signed callback, as the sandbox recorded the payout, delivered 10 times to each instance at once.
    const postingsBefore = await count('postings', []);
    const params = {
      orderNo: String(id),
      status: 'success',
      amount: '500.00',
      reference: payouts[0].reference as string,
      ts: String(Math.floor(Date.now() / 1000)),
    };
    const query = new URLSearchParams({ ...params, sign: signParams(params, SECRET) });
    const callbacks = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${at(i)}${NOTIFY}?${query}`);
        return { status: res.status, body: await res.text() };
      }),
    );
    expect(callbacks).toEqual(callbacks.map(() => ({ status: 200, body: PAYOUT_CALLBACK_ACK })));

    const { rows: history } = await sql.query(
      'select from_state, to_state, reason from withdrawal_history where withdrawal_id = $1 order by id',
      [id],
    );
    expect(history).toEqual([
      { from_state: null, to_state: 'pending', reason: null },
      { from_state: 'pending', to_state: 'approved', reason: null },
      { from_state: 'approved', to_state: 'processing', reason: null },
      { from_state: 'processing', to_state: 'paid', reason: params.reference },
    ]);
    expect(await count("notifications where user_id = $1 and kind = 'withdrawal_paid'", [user.id])).toBe(1);
    expect(await count('postings', [])).toBe(postingsBefore + 1);
    expect(await count('postings where idempotency_key = $1', [`withdrawal:${id}:paid`])).toBe(1);
    expect(await accountsOf(user.id)).toEqual({ wallet: 0n, hold: 0n });
    const user_ = await api(at(0), 'GET', `${USER}/withdraw/list?limit=10`, { token: user.token });
    expect(user_.body.data.items[0]).toMatchObject({ id, state: 'paid' });
  });
});
