import { PAYOUT_CALLBACK_ACK } from '@kamai/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { signParams } from '../src/features/payouts/payouts.signature';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import {
  type Answer,
  api,
  applyAlone,
  dropRedisKeys,
  freshDatabase,
  type Instance,
  requiredServices,
  startInstance,
} from './cluster';

/**
 * The crash loop (docs/decisions/reliability-suite.md): two server processes on one PostgreSQL database take mixed
 * money traffic
 * (withdrawals with an Idempotency-Key, task claims, approvals and rejections, the gateway's signed
 * callbacks, operator credits); ten times one of them is killed with SIGKILL in the middle of it and
 * started again. Every request that was answered 2xx is in the database, nothing happened twice, the
 * ledger holds after each round, and the payout jobs a killed process had leased are picked up by the
 * other once the lease (2 s here) runs out.
 */
const services = await requiredServices();
const USER = '/go_user/api/v1/user';
const COMMON = '/go_user/api/v1/common';
const ADMIN = '/go_user/api/v1/admin';
const NOTIFY = `${COMMON}/pay/notify/masterpay`;
const OPERATOR = { username: 'ops@kamai.test', password: 'operator-1' };
const SECRET = 'crash-loop-gateway-secret-0123456';
const ROUNDS = 10;
const USERS = 10;
const TASKS = 60;
const FUNDS = 50_000;
const AMOUNT = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One client's request: its answer, or undefined when the connection failed (never acknowledged). A
 * server error other than 503 in the envelope (a stopping instance, the database away) fails the test.
 */
async function attempt(request: (signal: AbortSignal) => Promise<Answer>): Promise<Answer | undefined> {
  let answer: Answer;
  try {
    answer = await request(AbortSignal.timeout(10_000));
  } catch {
    return undefined;
  }
  if (answer.status >= 500 && (answer.status !== 503 || answer.body.key !== 'service_unavailable')) {
    throw new Error(`server error: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

describe.skipIf(!services)('SIGKILL in the middle of mixed money traffic, ten rounds', () => {
  let instances: Instance[] = [];
  let env: Record<string, string>;
  let database: Database;
  let sql: pg.Client;
  let dropDatabase: () => Promise<void>;
  const prefix = `kamai-crash-${process.pid}-${Date.now()}:`;
  let adminToken = '';
  const users: { id: number; token: string }[] = [];
  const taskIds: number[] = [];

  // What the clients were told (acknowledged) and what they must retry.
  const withdrawalKeys = new Map<string, { user: number; id?: number }>();
  const acknowledgedApprovals = new Map<number, 'approved' | 'rejected'>();
  const toReview: number[] = [];
  const claims = new Map<string, { failed: boolean; acknowledged: boolean }>();
  const acknowledgedCallbacks = new Set<number>();
  const acknowledgedCredits: number[] = [];
  let sequence = 0;
  const at = (i: number) => instances[i % instances.length]?.url as string;

  beforeAll(async () => {
    if (!services) return;
    const fresh = await freshDatabase(services.databaseUrl);
    dropDatabase = fresh.drop;
    env = {
      DATABASE_URL: fresh.url,
      DATABASE_POOL_SIZE: '6',
      REDIS_URL: services.redisUrl,
      REDIS_KEY_PREFIX: prefix,
      ADMIN_USERNAME: OPERATOR.username,
      ADMIN_PASSWORD: OPERATOR.password,
      TRUST_PROXY: 'true',
      INVITE_CODE_REQUIRED: 'false',
      PAYOUT_GATEWAY_SECRET: SECRET,
      SANDBOX_PAYOUT_DELAY_MS: '300',
      SANDBOX_PAYOUT_FAILURE_RATE: '0.2',
      PAYOUT_RECONCILE_AFTER_SECONDS: '2',
      JOB_LEASE_SECONDS: '2',
    };
    instances = await Promise.all([startInstance(env), startInstance(env)]);
    database = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
    adminToken = (await api(at(0), 'POST', `${COMMON}/user/login`, { body: OPERATOR })).body.data.token;
    const token = adminToken;
    // The funds below are one credit each: above the default ₹10,000 a credit waits for a second admin.
    // Raising the limits is proposed (dual control): the only admin applies it once its delay has passed.
    const limits = await api(at(1), 'POST', `${ADMIN}/settings/set`, {
      body: { withdrawal: { dailyCount: 100 }, risk: { creditApprovalAbove: FUNDS } },
      token,
    });
    expect((await applyAlone(at(0), fresh.url, limits, token)).status).toBe(200);
    for (let i = 0; i < TASKS; i++) {
      const task = await api(at(i), 'POST', `${ADMIN}/task/add`, {
        body: {
          section: 'hot',
          reward: '1.00',
          titles: { en_US: `Crash loop task ${i}` },
          // Every registered user has earned task 2's reward: a condition each one meets.
          verification: { kind: 'automatic', condition: { type: 'income', amount: '0.01', days: 365 } },
        },
        token,
      });
      expect(task.status).toBe(200);
      taskIds.push(task.body.data.id);
    }
    for (let i = 0; i < USERS; i++) {
      const typed = `97${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 1000).padStart(3, '0')}${i}${i}`;
      const ip = `10.6.0.${i + 1}`;
      expect((await api(at(i), 'POST', `${COMMON}/otp/send`, { body: { target: typed }, ip })).status).toBe(200);
      const { rows } = await sql.query('select code from otp_outbox where target = $1 order by id desc limit 1', [
        `91${typed}`,
      ]);
      const registered = await api(at(i + 1), 'POST', `${COMMON}/user/register`, {
        body: { username: typed, password: 'secret123', password2: 'secret123', verifyCode: rows[0].code },
        ip,
      });
      expect(registered.status).toBe(200);
      const userToken = registered.body.data.token as string;
      const id = (await api(at(i), 'GET', `${USER}/user/detail`, { token: userToken })).body.data.id as number;
      const bound = await api(at(i), 'POST', `${USER}/wdaccount/bind`, {
        body: { accountNo: `crash${id}@okaxis`, accountName: 'Crash Loop' },
        token: userToken,
      });
      expect(bound.status).toBe(200);
      const funded = await api(at(i), 'POST', `${ADMIN}/revenue/add`, {
        body: { userId: id, amount: FUNDS, remark: 'crash loop funds' },
        token,
      });
      expect(funded.status).toBe(200);
      users.push({ id, token: userToken });
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    await sql?.end();
    await database?.close();
    await dropDatabase?.();
    if (services) await dropRedisKeys(services.redisUrl, prefix);
  });

  // ---- the clients ----

  /** A withdrawal under a new Idempotency-Key, or a retry of one never acknowledged. */
  async function withdrawOnce(retry?: string) {
    const i = sequence++;
    const key = retry ?? `crash-${i}`;
    const entry = withdrawalKeys.get(key) ?? { user: i % USERS };
    withdrawalKeys.set(key, entry);
    const user = users[entry.user] as { id: number; token: string };
    const res = await attempt((signal) =>
      api(at(i), 'POST', `${USER}/withdraw/add`, {
        body: { amount: AMOUNT },
        token: user.token,
        headers: { 'idempotency-key': key },
        signal,
      }),
    );
    if (res?.status === 200) {
      if (entry.id !== undefined) expect(res.body.data.id).toBe(entry.id);
      entry.id = res.body.data.id;
      toReview.push(res.body.data.id);
    } else if (res && res.status < 500) {
      throw new Error(`withdraw/add refused: ${JSON.stringify(res.body)}`);
    }
  }

  /** Approves four in five of the acknowledged withdrawals, rejects the fifth. */
  async function reviewOnce() {
    const id = toReview.shift();
    if (id === undefined) return sleep(20);
    const action = id % 5 === 0 ? 'reject' : 'approve';
    const res = await attempt((signal) =>
      api(at(sequence++), 'POST', `${ADMIN}/withdraw/review`, {
        body: { id, action, reason: action === 'reject' ? 'crash loop' : '' },
        token: adminToken,
        signal,
      }),
    );
    if (res?.status === 200) acknowledgedApprovals.set(id, action === 'approve' ? 'approved' : 'rejected');
    // An earlier attempt that landed without its answer: the state says so, nothing to do again.
    else if (res?.body.key === 'withdrawal_state_conflict') return;
    else if (res && res.status < 500) throw new Error(`review refused: ${JSON.stringify(res.body)}`);
    else toReview.push(id);
  }

  /** The next (user, task) pair, or a pair whose claim never got an answer. */
  async function claimOnce(pair: string) {
    const [u, t] = pair.split(':').map(Number) as [number, number];
    const state = claims.get(pair) ?? { failed: false, acknowledged: false };
    claims.set(pair, state);
    const res = await attempt((signal) =>
      api(at(sequence++), 'POST', `${USER}/task/finish`, {
        body: { taskId: taskIds[t] },
        token: users[u]?.token,
        signal,
      }),
    );
    if (res?.status === 200) state.acknowledged = true;
    else if (res?.body.key === 'task_already_claimed') {
      // Only a claim that was sent before and lost its answer may have landed already.
      expect(state.failed, `task ${pair} claimed twice`).toBe(true);
    } else if (res && res.status < 500) throw new Error(`task/finish refused: ${JSON.stringify(res.body)}`);
    else state.failed = true;
    return res?.status === 200 || res?.body.key === 'task_already_claimed';
  }

  /** The gateway's signed callback for a payout in flight, as the sandbox recorded it. */
  async function callbackOnce() {
    const { rows } = await sql.query(
      `select s.order_no, s.status, s.reference, s.reason, s.amount::text as amount from sandbox_payouts s
       join withdrawals w on w.id = s.order_no::bigint where w.state in ('approved', 'processing')
       order by random() limit 1`,
    );
    const payout = rows[0];
    if (!payout) return sleep(50);
    const params: Record<string, string> = {
      orderNo: payout.order_no,
      status: payout.status,
      amount: (Number(payout.amount) / 100).toFixed(2),
      ts: String(Math.floor(Date.now() / 1000)),
      ...(payout.reference ? { reference: payout.reference } : {}),
      ...(payout.reason ? { reason: payout.reason } : {}),
    };
    const query = new URLSearchParams({ ...params, sign: signParams(params, SECRET) });
    let status: number;
    let body: string;
    try {
      const res = await fetch(`${at(sequence++)}${NOTIFY}?${query}`, { signal: AbortSignal.timeout(10_000) });
      status = res.status;
      body = await res.text();
    } catch {
      return; // the connection died with the server: not acknowledged
    }
    if (status === 200 && body === PAYOUT_CALLBACK_ACK) acknowledgedCallbacks.add(Number(payout.order_no));
    else if (status !== 503 || !body.includes('"service_unavailable"')) {
      throw new Error(`callback answered ${status}: ${body}`);
    }
  }

  async function creditOnce() {
    const user = users[sequence % USERS] as { id: number };
    const res = await attempt((signal) =>
      api(at(sequence++), 'POST', `${ADMIN}/revenue/add`, {
        body: { userId: user.id, amount: '1.00', remark: 'crash loop credit' },
        token: adminToken,
        signal,
      }),
    );
    if (res?.status === 200) acknowledgedCredits.push(res.body.data.postingId);
    else if (res && res.status < 500) throw new Error(`revenue/add refused: ${JSON.stringify(res.body)}`);
  }

  let nextPair = 0;
  const lostClaims: string[] = [];
  const lostWithdrawals = () => [...withdrawalKeys].filter(([, entry]) => entry.id === undefined).map(([key]) => key);

  /** The mixed traffic, until `stop()`: retries of unanswered requests first, as a client would. */
  function traffic() {
    let running = true;
    const loop =
      (step: () => Promise<unknown>, pauseMs = 10) =>
      async () => {
        while (running) {
          await step();
          await sleep(pauseMs);
        }
      };
    const busy = new Set<string>();
    // A few withdrawals a second (each user may make 100 a day), so the payouts settle in seconds at the end.
    const withdrawing = loop(async () => {
      const retry = lostWithdrawals().find((key) => !busy.has(key));
      if (retry) busy.add(retry);
      try {
        await withdrawOnce(retry);
      } finally {
        if (retry) busy.delete(retry);
      }
    }, 100);
    const claiming = loop(async () => {
      if (lostClaims.length === 0 && nextPair >= USERS * TASKS) return sleep(50);
      const pair = lostClaims.shift() ?? `${nextPair % USERS}:${Math.floor(nextPair++ / USERS)}`;
      if (!(await claimOnce(pair))) lostClaims.push(pair);
    });
    const done = Promise.all([
      withdrawing(),
      loop(reviewOnce)(),
      claiming(),
      loop(callbackOnce)(),
      loop(creditOnce, 30)(),
    ]);
    return async () => {
      running = false;
      await done;
    };
  }

  // ---- the checks ----

  const query = async (text: string, params: unknown[] = []) => (await sql.query(text, params)).rows;

  async function checkAcknowledged() {
    expect(await checkLedger(database.db)).toEqual({ ok: true, problems: [] });
    // Every acknowledged withdrawal exists, for its user, under its key, once.
    const acknowledged = [...withdrawalKeys].filter(([, e]) => e.id !== undefined);
    const rows = await query(
      `select w.id::int, w.user_id::int, k.key from withdrawals w
       join idempotency_keys k on k.scope = 'withdraw/add' and (k.response->>'id')::bigint = w.id`,
    );
    const byId = new Map(rows.map((r) => [r.id as number, r]));
    for (const [key, entry] of acknowledged) {
      expect(byId.get(entry.id as number), `withdrawal of ${key}`).toMatchObject({
        key,
        user_id: users[entry.user]?.id,
      });
    }
    const [counts] = await query(
      `select (select count(*)::int from withdrawals) as withdrawals,
              (select count(*)::int from idempotency_keys where scope = 'withdraw/add') as keys,
              (select count(*)::int from postings where type = 'withdrawal_hold') as holds,
              (select count(*)::int from task_completions) as completions,
              (select count(*)::int from postings where type = 'task_reward') as rewards,
              (select count(*)::int from postings where type = 'manual_credit') as credits,
              (select count(*)::int from audit_log where action = 'revenue.add') as audited`,
    );
    expect(counts.withdrawals).toBe(counts.keys);
    expect(counts.holds).toBe(counts.withdrawals);
    expect(counts.rewards).toBe(counts.completions);
    expect(counts.audited).toBe(counts.credits);
    // No transition twice.
    expect(
      await query(
        'select withdrawal_id, to_state, count(*)::int as n from withdrawal_history group by 1, 2 having count(*) > 1',
      ),
    ).toEqual([]);
    // Every acknowledged review, claim, callback and credit is there.
    const states = new Map(
      (await query('select id::int, state from withdrawals')).map((r) => [r.id as number, r.state as string]),
    );
    for (const [id, decided] of acknowledgedApprovals) {
      if (decided === 'rejected') expect(states.get(id), `withdrawal ${id}`).toBe('rejected');
      else expect(['approved', 'processing', 'paid', 'failed'], `withdrawal ${id}`).toContain(states.get(id));
    }
    for (const id of acknowledgedCallbacks) expect(['paid', 'failed'], `withdrawal ${id}`).toContain(states.get(id));
    const completed = new Set(
      (await query('select user_id::int, task_id::int from task_completions')).map((r) => `${r.user_id}:${r.task_id}`),
    );
    for (const [pair, state] of claims) {
      const [u, t] = pair.split(':').map(Number) as [number, number];
      if (state.acknowledged) expect(completed.has(`${users[u]?.id}:${taskIds[t]}`), `claim ${pair}`).toBe(true);
    }
    const credited = await query('select count(*)::int as n from postings where id = any($1::bigint[])', [
      acknowledgedCredits,
    ]);
    expect(credited[0].n).toBe(acknowledgedCredits.length);
  }

  it('keeps every acknowledged request, does nothing twice and keeps the ledger whole', {
    // Generous: each restart is a cold start of the server (seconds, many more on a busy machine).
    timeout: 600_000,
  }, async () => {
    const killedWhileBusy: number[] = [];
    const started = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      const stop = traffic();
      await sleep(700 + Math.floor(Math.random() * 600));
      const victim = round % 2;
      const { rows } = await sql.query(
        "select count(*)::int as n from jobs where done_at is null and locked_until > now() and kind like 'payout%'",
      );
      killedWhileBusy.push(rows[0].n);
      await instances[victim]?.kill();
      // Started again while the survivor carries the traffic (requests to the dead one fail meanwhile).
      instances[victim] = await startInstance(env);
      await sleep(200);
      await stop();
      await checkAcknowledged();
    }
    const roundsMs = Date.now() - started;

    // Clients retry what never got an answer, the operator reviews what is left, the gateway reports.
    for (const key of lostWithdrawals()) await withdrawOnce(key);
    expect(lostWithdrawals()).toEqual([]);
    while (toReview.length > 0) await reviewOnce();
    for (const pair of lostClaims.splice(0)) expect(await claimOnce(pair)).toBe(true);
    const unsettled = async () =>
      (await query("select count(*)::int as n from withdrawals where state in ('approved', 'processing')"))[0].n;
    const deadline = Date.now() + 60_000;
    while ((await unsettled()) > 0 && Date.now() < deadline) await sleep(250);
    expect(await unsettled()).toBe(0);
    await checkAcknowledged();

    // Each withdrawal's money moved once for its final state, each payout made once.
    const withdrawals = await query(
      `select w.id, w.state,
        (select count(*) from postings p where p.idempotency_key = 'withdrawal:' || w.id || ':paid')::int as paid,
        (select count(*) from postings p where p.idempotency_key = 'withdrawal:' || w.id || ':refund')::int as refunds,
        (select count(*) from sandbox_payouts s where s.order_no = w.id::text)::int as payouts,
        (select count(*) from sandbox_payouts s where s.order_no = w.id::text and s.amount = w.amount
           and s.status = case w.state when 'paid' then 'success' else 'failed' end)::int as matching
      from withdrawals w order by w.id`,
    );
    expect(withdrawals.length).toBe(withdrawalKeys.size);
    const expected: Record<string, object> = {
      paid: { paid: 1, refunds: 0, payouts: 1, matching: 1 },
      failed: { paid: 0, refunds: 1, payouts: 1, matching: 1 },
      rejected: { paid: 0, refunds: 1, payouts: 0 },
    };
    for (const w of withdrawals) expect(w, `withdrawal ${w.id}`).toMatchObject(expected[w.state] ?? { state: '?' });
    expect(withdrawals.filter((w) => w.state === 'paid').length).toBeGreaterThan(0);
    // Every rupee is accounted for: what came in (funds, credits, task rewards with the sign-up reward)
    // is in the wallet, still held, or went to the bank.
    const balances = await query(
      `select u.id, a.balance::text as wallet,
        (select coalesce(sum(amount), 0) from withdrawals w where w.user_id = u.id and w.state = 'paid')::text as out,
        (select coalesce(sum(e.amount), 0) from entries e join postings p on p.id = e.posting_id
          where e.account_id = a.id and p.type in ('manual_credit', 'task_reward', 'rebate'))::text as credited,
        (select balance from accounts h where h.user_id = u.id and h.kind = 'hold')::text as held
      from users u join accounts a on a.user_id = u.id and a.kind = 'wallet' where u.role = 'user'`,
    );
    expect(balances).toHaveLength(USERS);
    for (const b of balances) {
      expect(BigInt(b.wallet) + BigInt(b.held ?? 0) + BigInt(b.out), `user ${b.id}`).toBe(BigInt(b.credited));
    }
    console.info(
      `crash loop: ${withdrawals.length} withdrawals, ${claims.size} claims, ${acknowledgedCredits.length} credits, ` +
        `${acknowledgedCallbacks.size} callbacks acknowledged in ${roundsMs} ms of rounds; ` +
        `payout jobs under lease at each kill: ${killedWhileBusy}`,
    );

    // A server asked to stop under traffic, with payout jobs and the sandbox's reports pending, stops cleanly:
    // exit code 0 (1 would mean main.ts's 15 s shutdown deadline fired).
    const stop = traffic();
    await sleep(500);
    const stopped = await Promise.all(instances.map((instance) => instance.stop()));
    await stop();
    expect(stopped).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    await checkAcknowledged();
  });
});
