import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { competitorPool, writeCompetitor } from '../../bench/minimal/writes';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, fund } from './payout-helpers';

/**
 * The write yardstick of benchmarks 3 and 4 (bench/minimal/writes.ts) refuses what Kamai refuses and
 * writes the rows Kamai writes: every scenario runs once against Kamai and once against the
 * competitor, on the same database, each with users of its own set up alike, and the answers (status,
 * key) and the rows written for those users (ids replaced by their order) must be equal. The
 * competitor speaks node-postgres, so this runs on the PostgreSQL server only.
 */
const server = process.env.DATABASE_URL;

type Send = (path: string, body: unknown, token: string, headers?: Record<string, string>) => Promise<Answer>;
interface Answer {
  status: number;
  key: string;
  data: Record<string, unknown> | null;
}

let ctx: TestContext;
let pool: pg.Pool;
let competitor: FastifyInstance;

async function viaKamai(path: string, body: unknown, token: string, headers: Record<string, string> = {}) {
  const res = await ctx.post(`${API}${path}`, body, { token, headers });
  return { status: res.status, key: res.body.key as string, data: res.body.data };
}

async function viaCompetitor(path: string, body: unknown, token: string, headers: Record<string, string> = {}) {
  const res = await competitor.inject({
    method: 'POST',
    url: `${API}${path}`,
    payload: body as Record<string, unknown>,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  const json = res.json();
  return { status: res.statusCode, key: json.key as string, data: json.data };
}

const CONTENDERS: [string, () => Send][] = [
  ['Kamai', () => viaKamai],
  ['competitor', () => viaCompetitor],
];

beforeAll(async () => {
  if (!server) return;
  ctx = await createTestContext();
  const current = (await ctx.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const url = new URL(server);
  url.pathname = `/${current.rows[0]?.name}`;
  pool = competitorPool(url.toString());
  competitor = writeCompetitor(pool);
  await competitor.ready();
  const admin = await ctx.adminToken();
  const limits = await ctx.control(
    `${API}/admin/settings/set`,
    { withdrawal: { min: '1', max: '50', dailyCount: 5, dailyTotal: '200' } },
    { token: admin },
  );
  expect(limits.status).toBe(200);
});
afterEach(async () => {
  if (!server) return;
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  if (!server) return;
  await competitor.close();
  await pool.end();
  await ctx.close();
});

/** A user with a default UPI account and `rupees` in the wallet (the registration reward counted in). */
async function payee(rupees: number, inviteCode?: string) {
  const user = await ctx.newUser({ inviteCode });
  await bindUpi(ctx, user.token, `p${user.id}@okaxis`);
  const start = Number(await ctx.balanceOf(user.token));
  if (rupees > start) await fund(ctx, user.id, (rupees - start).toFixed(2));
  return user;
}

/** The newest posting's id: what a scenario writes after its set-up comes after it. */
async function lastPosting(): Promise<string> {
  return (await query<{ id: string }>('select coalesce(max(id), 0)::text as id from postings', []))[0]?.id ?? '0';
}

async function query<T>(text: string, values: unknown[]): Promise<T[]> {
  return (await pool.query(text, values)).rows as T[];
}

/**
 * What was written for these users, with every id replaced by its place in this list (`u0` the first
 * user, `w0` their first withdrawal...), times dropped: the rows Kamai and the competitor must agree on.
 */
async function rowsOf(userIds: number[], since: string) {
  const names = new Map<string, string>(userIds.map((id, i) => [String(id), `u${i}`]));
  const withdrawalIds = (
    await query<{ id: string }>('select id from withdrawals where user_id = any($1) order by id', [userIds])
  ).map((r) => r.id);
  for (const [i, id] of withdrawalIds.entries()) names.set(`w${id}`, `w${i}`);
  const rename = (text: string) =>
    text
      .replace(/withdrawal:(\d+)/g, (_, id) => `withdrawal:${names.get(`w${id}`) ?? 'other'}`)
      .replace(/user:(\d+)/g, (_, id) => `user:${names.get(id) ?? 'other'}`)
      .replace(/task:(\d+)/g, 'task:T');
  const user = (id: unknown) => names.get(String(id)) ?? (id === null ? null : 'other');
  const withdrawal = (id: unknown) => names.get(`w${id}`) ?? 'other';
  const postings = await query<Record<string, unknown>>(
    `select distinct p.id, p.type, p.idempotency_key, p.ref from postings p join entries e on e.posting_id = p.id
     join accounts a on a.id = e.account_id where a.user_id = any($1) and p.id > $2 order by p.id`,
    [userIds, since],
  );
  const postingNames = new Map(postings.map((p, i) => [String(p.id), `p${i}`]));
  const posting = (id: unknown) => postingNames.get(String(id)) ?? 'other';
  const entries = await query<Record<string, unknown>>(
    `select e.posting_id, coalesce(a.user_id::text, a.kind) as owner, a.kind, e.amount::text, e.balance_after::text
     from entries e join accounts a on a.id = e.account_id where e.posting_id = any($1) order by e.posting_id, e.id`,
    [postings.map((p) => p.id)],
  );
  return {
    accounts: (
      await query<Record<string, unknown>>(
        'select user_id, kind, balance::text from accounts where user_id = any($1) order by user_id, kind',
        [userIds],
      )
    ).map((a) => ({ ...a, user_id: user(a.user_id) })),
    withdrawals: (
      await query<Record<string, unknown>>(
        `select id, user_id, account_type, ifsc, account_no like 'p%@okaxis' as upi, account_name, amount::text,
           fee::text, state, reviewer_id is not null as reviewed, gateway, risk_score, risk_reasons,
           approvals_required, first_approver_id is not null as first_approved
         from withdrawals where user_id = any($1) order by id`,
        [userIds],
      )
    ).map((w) => ({ ...w, id: withdrawal(w.id), user_id: user(w.user_id) })),
    history: (
      await query<Record<string, unknown>>(
        `select withdrawal_id, from_state, to_state, reason, actor_id from withdrawal_history
         where withdrawal_id = any($1) order by withdrawal_id, id`,
        [withdrawalIds],
      )
    ).map((h) => ({ ...h, withdrawal_id: withdrawal(h.withdrawal_id), actor_id: user(h.actor_id) })),
    postings: postings.map((p) => ({
      id: posting(p.id),
      type: p.type,
      key: rename(String(p.idempotency_key)),
      ref: JSON.parse(
        rename(JSON.stringify(p.ref))
          .replace(/"withdrawalId":(\d+)/, (_, id) => `"withdrawalId":"${withdrawal(id)}"`)
          .replace(/"inviteeId":(\d+)/, (_, id) => `"inviteeId":"${user(id)}"`)
          .replace(/"sourcePostingId":(\d+)/, (_, id) => `"sourcePostingId":"${posting(id)}"`)
          .replace(/"taskId":(\d+)/, '"taskId":"T"'),
      ),
    })),
    entries: entries.map((e) => ({
      ...e,
      posting_id: posting(e.posting_id),
      owner: names.get(String(e.owner)) ?? e.owner,
    })),
    idempotencyKeys: (
      await query<Record<string, unknown>>(
        `select user_id, scope, key, request_hash, response is not null as answered from idempotency_keys
         where user_id = any($1) order by user_id, key`,
        [userIds],
      )
    ).map((k) => ({ ...k, user_id: user(k.user_id) })),
    rebates: (
      await query<Record<string, unknown>>(
        `select source_posting_id, invitee_id, earner_id, level, bps, amount::text, state, accrual_posting_id
         from rebates where invitee_id = any($1) and source_posting_id > $2 order by id`,
        [userIds, since],
      )
    ).map(
      (r): Record<string, unknown> => ({
        ...r,
        source_posting_id: posting(r.source_posting_id),
        accrual_posting_id: posting(r.accrual_posting_id),
        invitee_id: user(r.invitee_id),
        earner_id: user(r.earner_id),
      }),
    ),
    completions: (
      await query<Record<string, unknown>>(
        'select user_id, posting_id from task_completions where user_id = any($1) and task_id <> 2 order by user_id',
        [userIds],
      )
    ).map((c) => ({ user_id: user(c.user_id), posting_id: posting(c.posting_id) })),
    notifications: (
      await query<Record<string, unknown>>(
        `select user_id, kind, params, dedupe_key from notifications
         where user_id = any($1) and kind like 'withdrawal%' order by id`,
        [userIds],
      )
    ).map((n) => ({
      user_id: user(n.user_id),
      kind: n.kind,
      params: {
        ...(n.params as object),
        withdrawalId: withdrawal((n.params as { withdrawalId: number }).withdrawalId),
      },
      dedupe_key: rename(String(n.dedupe_key)),
    })),
    jobs: (
      await query<Record<string, unknown>>(
        `select kind, dedupe_key, payload from jobs where kind = 'payout.dispatch'
         and (payload->>'withdrawalId')::bigint = any($1) order by id`,
        [withdrawalIds],
      )
    ).map((j) => ({ kind: j.kind, dedupe_key: String(j.dedupe_key).replace(/\d+$/, (id) => withdrawal(id)) })),
    audit: (
      await query<Record<string, unknown>>(
        `select action, target, before, after from audit_log where target = any($1) order by id`,
        [withdrawalIds.map((id) => `withdrawal:${id}`)],
      )
    ).map((a): Record<string, unknown> => ({ ...a, target: rename(String(a.target)) })),
  };
}

/** Runs `scenario` against each contender on users of its own; answers and rows must be equal. */
async function bothAgree<T>(scenario: (send: Send) => Promise<{ answers: T; users: number[]; since: string }>) {
  const results = [];
  for (const [, make] of CONTENDERS) {
    const { answers, users, since } = await scenario(make());
    results.push({ answers, rows: await rowsOf(users, since) });
  }
  const [kamai, minimal] = results as [(typeof results)[number], (typeof results)[number]];
  expect(minimal.answers).toEqual(kamai.answers);
  expect(minimal.rows).toEqual(kamai.rows);
  return kamai;
}

const shape = (a: Answer) => ({ status: a.status, key: a.key });

describe.skipIf(!server)('the write competitor against Kamai', () => {
  it('withdraw/add: limits, balance, frozen-free refusals and one success, with the same rows', async () => {
    const { answers, rows } = await bothAgree(async (send) => {
      const user = await payee(30);
      const since = await lastPosting();
      const answers = [
        await send('/user/withdraw/add', { amount: '0.50' }, user.token),
        await send('/user/withdraw/add', { amount: '51' }, user.token),
        await send('/user/withdraw/add', { amount: '40' }, user.token),
        await send('/user/withdraw/add', { amount: '12.34' }, user.token),
        await send('/user/withdraw/add', { amount: '20' }, user.token),
        await send('/user/withdraw/add', { amount: '5', accountId: 999_999 }, user.token),
      ].map((a) => ({ ...shape(a), vars: a.status === 200 ? null : { ...a.data, requestId: undefined } }));
      return { answers, users: [user.id], since };
    });
    expect(answers.map((a) => a.key)).toEqual([
      'withdrawal_below_minimum',
      'withdrawal_above_maximum',
      'insufficient_balance',
      'withdrawal_submitted',
      'insufficient_balance',
      'payout_account_not_found',
    ]);
    expect(rows.withdrawals).toHaveLength(1);
    expect(rows.entries).toHaveLength(2);
  });

  it('withdraw/add: the daily count, and a replayed idempotency key answers the first answer or 409', async () => {
    const { answers } = await bothAgree(async (send) => {
      const user = await payee(100);
      const since = await lastPosting();
      const key = { 'idempotency-key': 'retry-1' };
      const first = await send('/user/withdraw/add', { amount: '2' }, user.token, key);
      const replay = await send('/user/withdraw/add', { amount: '2' }, user.token, key);
      const reused = await send('/user/withdraw/add', { amount: '3' }, user.token, key);
      const more = [];
      for (let i = 0; i < 5; i += 1) more.push(shape(await send('/user/withdraw/add', { amount: '1' }, user.token)));
      return {
        answers: {
          first: shape(first),
          replay: shape(replay),
          same: replay.data?.id === first.data?.id,
          reused: shape(reused),
          more,
        },
        users: [user.id],
        since,
      };
    });
    expect(answers).toMatchObject({
      replay: { status: 200 },
      same: true,
      reused: { status: 409, key: 'idempotency_key_reused' },
    });
    expect(answers.more.map((a) => a.key)).toEqual([
      'withdrawal_submitted',
      'withdrawal_submitted',
      'withdrawal_submitted',
      'withdrawal_submitted',
      'withdrawal_daily_count_reached',
    ]);
  });

  it('withdraw/add: a parallel burst on one balance takes exactly what is there', async () => {
    const { answers } = await bothAgree(async (send) => {
      const user = await payee(30);
      const since = await lastPosting();
      const burst = await Promise.all(
        Array.from({ length: 12 }, () => send('/user/withdraw/add', { amount: '10' }, user.token)),
      );
      const counts: Record<string, number> = {};
      for (const a of burst) counts[a.key] = (counts[a.key] ?? 0) + 1;
      return { answers: counts, users: [user.id], since };
    });
    expect(answers).toEqual({ withdrawal_submitted: 3, insufficient_balance: 9 });
  });

  it('withdraw/review: approving twice, and two approvals at once, dispatch once', async () => {
    const admin = await ctx.adminToken();
    const { answers, rows } = await bothAgree(async (send) => {
      const user = await payee(10);
      const since = await lastPosting();
      const made = await send('/user/withdraw/add', { amount: '2' }, user.token);
      const other = await send('/user/withdraw/add', { amount: '3' }, user.token);
      const id = made.data?.id;
      const answers = {
        own: shape(await send('/admin/withdraw/review', { id, action: 'approve', reason: '' }, user.token)),
        first: shape(await send('/admin/withdraw/review', { id, action: 'approve', reason: 'ok' }, admin)),
        again: shape(await send('/admin/withdraw/review', { id, action: 'approve', reason: '' }, admin)),
        missing: shape(await send('/admin/withdraw/review', { id: 99_999_999, action: 'approve', reason: '' }, admin)),
        race: (
          await Promise.all(
            [1, 2, 3].map(() =>
              send('/admin/withdraw/review', { id: other.data?.id, action: 'approve', reason: '' }, admin),
            ),
          )
        )
          .map((a) => a.key)
          .sort(),
      };
      return { answers, users: [user.id], since };
    });
    expect(answers).toEqual({
      own: { status: 403, key: 'forbidden' },
      first: { status: 200, key: 'withdrawal_reviewed' },
      again: { status: 409, key: 'withdrawal_state_conflict' },
      missing: { status: 404, key: 'withdrawal_not_found' },
      race: ['withdrawal_reviewed', 'withdrawal_state_conflict', 'withdrawal_state_conflict'],
    });
    expect(rows.jobs).toHaveLength(2);
    expect(rows.audit.map((a) => a.action)).toEqual(['withdrawal.approve', 'withdrawal.approve']);
  });

  it('task/finish: the reward with both rebate levels once, however many claims race', async () => {
    const admin = await ctx.adminToken();
    const task = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'hot',
        reward: '1.00',
        titles: { en_US: 'Compared task' },
        verification: { kind: 'automatic', condition: { type: 'income', amount: '0.01', days: 365 } },
      },
      { token: admin },
    );
    expect(task.status).toBe(200);
    const taskId = task.body.data.id as number;
    const { answers, rows } = await bothAgree(async (send) => {
      const top = await ctx.newUser();
      const middle = await ctx.newUser({ inviteCode: top.inviteCode });
      const user = await ctx.newUser({ inviteCode: middle.inviteCode });
      const racer = await ctx.newUser({ inviteCode: middle.inviteCode });
      const since = await lastPosting();
      const answers = {
        first: shape(await send('/user/task/finish', { taskId }, user.token)),
        again: shape(await send('/user/task/finish', { taskId }, user.token)),
        missing: shape(await send('/user/task/finish', { taskId: 99_999_999 }, user.token)),
        staff: shape(await send('/user/task/finish', { taskId }, admin)),
        race: (await Promise.all([1, 2, 3, 4].map(() => send('/user/task/finish', { taskId }, racer.token))))
          .map((a) => a.key)
          .sort(),
      };
      return { answers, users: [user.id, racer.id, middle.id, top.id], since };
    });
    expect(answers).toEqual({
      first: { status: 200, key: 'task_reward_credited' },
      again: { status: 409, key: 'task_already_claimed' },
      missing: { status: 404, key: 'task_not_found' },
      staff: { status: 409, key: 'task_condition_unmet' },
      race: ['task_already_claimed', 'task_already_claimed', 'task_already_claimed', 'task_reward_credited'],
    });
    // Two rewards, each with a level-1 rebate to the middle and a level-2 rebate to the top.
    expect(rows.rebates.map((r) => [r.earner_id, r.level, r.amount])).toEqual([
      ['u2', 1, '10'],
      ['u3', 2, '5'],
      ['u2', 1, '10'],
      ['u3', 2, '5'],
    ]);
  });
});
