import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs, notifications, postings, users, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, fund, ownWithdrawal, payee, review, withdraw } from './payout-helpers';

let ctx: TestContext;
const SETTINGS = `${API}/admin/settings/get`;
const SET = `${API}/admin/settings/set`;
const ADMIN_LIST = `${API}/admin/withdraw/list`;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

async function setLimits(withdrawal: Record<string, unknown>) {
  const res = await ctx.control(SET, { withdrawal }, { token: await ctx.adminToken() });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function withdrawalCount(userId: number) {
  const [row] = await ctx.db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.userId, userId));
  return row?.n ?? 0;
}

describe('withdraw/add', () => {
  it('moves the amount to the hold at once and shows the request under review', async () => {
    const user = await payee(ctx, 1000);
    const res = await withdraw(ctx, user.token, { amount: '250.50' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, key: 'withdrawal_submitted', message: 'Submission successful' });
    expect(await ctx.balanceOf(user.token)).toBe('749.50');

    const item = await ownWithdrawal(ctx, user.token, res.body.data.id);
    expect(item).toEqual({
      id: res.body.data.id,
      amount: '250.50',
      fee: '0.00',
      payout: '250.50',
      state: 'pending',
      stateLabelKey: 'withdrawal_state_pending',
      reason: null,
      reference: null,
      account: {
        id: expect.any(Number),
        accountType: 'upi',
        accountNoMasked: 'as•••@okaxis',
        accountName: 'Asha Kumari',
        ifsc: '',
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      finishedAt: null,
      history: [{ state: 'pending', reason: null, at: expect.any(String) }],
      timeline: [
        { step: 'requested', status: 'done', at: expect.any(String), detail: null },
        { step: 'review', status: 'current', at: expect.any(String), detail: null },
        { step: 'approved', status: 'todo', at: null, detail: null },
        { step: 'sent', status: 'todo', at: null, detail: null },
        { step: 'paid', status: 'todo', at: null, detail: null },
      ],
      returned: null,
    });
    const movements = await ctx.get(`${API}/user/balance/list`, { token: user.token });
    expect(movements.body.data.items[0]).toMatchObject({
      type: 'withdrawal_hold',
      amount: '-250.50',
      balanceAfter: '749.50',
      ref: { withdrawalId: res.body.data.id },
    });
  });

  it('does not make task 6 claimable with a request alone: it waits for the payout (first-withdrawal.test.ts)', async () => {
    const user = await payee(ctx, 500);
    const task6 = async () => {
      const list = await ctx.get(`${API}/user/task/list`, { token: user.token });
      const all = list.body.data.sections.flatMap((s: { items: { id: number }[] }) => s.items);
      return all.find((t: { id: number }) => t.id === 6) as { state: string; progress: number };
    };
    expect(await task6()).toMatchObject({ state: 'incomplete', progress: 0 });
    expect((await ctx.post(`${API}/user/task/finish`, { taskId: 6 }, { token: user.token })).status).toBe(409);
    expect((await withdraw(ctx, user.token, { amount: 100 })).status).toBe(200);
    expect(await task6()).toMatchObject({ state: 'incomplete', progress: 0 });
    expect((await ctx.post(`${API}/user/task/finish`, { taskId: 6 }, { token: user.token })).status).toBe(409);
    expect(await ctx.balanceOf(user.token)).toBe('400.00');
  });

  it("does not count another user's withdrawal toward task 6", async () => {
    const other = await payee(ctx, 500);
    expect((await withdraw(ctx, other.token, { amount: 100 })).status).toBe(200);
    const user = await payee(ctx, 500);
    const list = await ctx.get(`${API}/user/task/list`, { token: user.token });
    const all = list.body.data.sections.flatMap((s: { items: { id: number }[] }) => s.items);
    expect(all.find((t: { id: number }) => t.id === 6)).toMatchObject({ state: 'incomplete', progress: 0 });
  });

  it.each([
    [{}, 400, 'enter_withdrawal_amount', 'Enter withdrawal amount'],
    [{ amount: '' }, 400, 'enter_withdrawal_amount', 'Enter withdrawal amount'],
    [{ amount: '12.345' }, 400, 'invalid_amount', 'Enter an amount in rupees with at most two decimals'],
    [{ amount: -5 }, 400, 'invalid_amount', 'Enter an amount in rupees with at most two decimals'],
    [{ amount: '99.99' }, 400, 'withdrawal_below_minimum', 'The minimum withdrawal is ₹100.00'],
    [{ amount: '50000.01' }, 400, 'withdrawal_above_maximum', 'The maximum withdrawal is ₹50000.00'],
    [{ amount: '1000.01' }, 409, 'insufficient_balance', 'Insufficient balance'],
  ])('refuses %j with %i %s and moves nothing', async (body, status, key, message) => {
    const user = await payee(ctx, 1000);
    const res = await withdraw(ctx, user.token, body as { amount: unknown });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, key, message });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await withdrawalCount(user.id)).toBe(0);
  });

  it('says "withdrawal information incomplete" without a payout account, and refuses a frozen user', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, 500);
    const none = await withdraw(ctx, user.token, { amount: 100 });
    expect(none.status).toBe(400);
    expect(none.body.key).toBe('withdrawal_info_incomplete');

    await bindUpi(ctx, user.token);
    await ctx.db.update(users).set({ frozen: true }).where(eq(users.id, user.id));
    const frozen = await withdraw(ctx, user.token, { amount: 100 });
    expect(frozen.status).toBe(403);
    expect(frozen.body.key).toBe('account_frozen');
    expect((await ctx.get(`${API}/user/withdraw/limits`, { token: user.token })).body.data.frozen).toBe(true);
    expect(await withdrawalCount(user.id)).toBe(0);
  });

  it('lets exactly one of 50 parallel withdrawals of the whole balance through', async () => {
    const user = await payee(ctx, 800);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => withdraw(ctx, user.token, { amount: 800 }, `full-${user.id}-${i}`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.key === 'insufficient_balance')).toHaveLength(49);
    expect(await ctx.balanceOf(user.token)).toBe('0.00');
    expect(await withdrawalCount(user.id)).toBe(1);
  });

  it('lets exactly two of 50 parallel withdrawals through a balance for two', async () => {
    const user = await payee(ctx, 1000);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => withdraw(ctx, user.token, { amount: 500 }, `two-${user.id}-${i}`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(await ctx.balanceOf(user.token)).toBe('0.00');
    expect(await withdrawalCount(user.id)).toBe(2);
  });
});

describe('daily limits', () => {
  afterAll(async () => {
    await setLimits({ min: 100, max: 50000, dailyCount: 3, dailyTotal: 100000 });
  });

  it('lets only one of two concurrent withdrawals that together pass the daily total through', async () => {
    await setLimits({ dailyTotal: 1000 });
    const user = await payee(ctx, 5000);
    const results = await Promise.all([
      withdraw(ctx, user.token, { amount: 600 }),
      withdraw(ctx, user.token, { amount: 600 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409);
    expect(refused?.body).toMatchObject({
      key: 'withdrawal_daily_total_reached',
      message: 'Withdrawals are limited to ₹1000.00 a day; ₹400.00 is left today',
    });
    expect(await ctx.balanceOf(user.token)).toBe('4400.00');
  });

  it('counts requests per India calendar day, whatever became of them but a cancellation', async () => {
    await setLimits({ dailyTotal: 100000, dailyCount: 2 });
    const user = await payee(ctx, 5000);
    const first = await withdraw(ctx, user.token, { amount: 100 });
    expect((await review(ctx, first.body.data.id, 'reject', 'Wrong account')).status).toBe(200);
    expect((await withdraw(ctx, user.token, { amount: 100 })).status).toBe(200);
    const third = await withdraw(ctx, user.token, { amount: 100 });
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({
      key: 'withdrawal_daily_count_reached',
      message: 'You can request at most 2 withdrawals a day',
    });
    const limits = await ctx.get(`${API}/user/withdraw/limits`, { token: user.token });
    expect(limits.body.data).toEqual({
      min: '100.00',
      max: '50000.00',
      dailyCount: 2,
      dailyTotal: '100000.00',
      todayCount: 2,
      todayTotal: '200.00',
      balance: '4900.00',
      frozen: false,
      fee: '0.00',
      payoutHours: 24,
      todayCancelled: 0,
      requestsLeft: 0,
      // What the form warns about before it asks: the database's refusals for the rest of the day.
      refusals: [
        { fromPaise: null, toPaise: '9999', key: 'withdrawal_below_minimum', vars: { min: { paise: '10000' } } },
        { fromPaise: '5000001', toPaise: null, key: 'withdrawal_above_maximum', vars: { max: { paise: '5000000' } } },
        { fromPaise: null, toPaise: null, key: 'withdrawal_daily_count_reached', vars: { count: 2 } },
        {
          fromPaise: '9980001',
          toPaise: null,
          key: 'withdrawal_daily_total_reached',
          vars: { total: { paise: '10000000' }, left: { paise: '9980000' } },
        },
      ],
    });

    ctx.advance(24 * 3600_000);
    expect((await withdraw(ctx, user.token, { amount: 100 })).status).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with the same key and body exactly like the first time, with one withdrawal', async () => {
    const user = await payee(ctx, 1000);
    const key = `retry-${user.id}`;
    const first = await withdraw(ctx, user.token, { amount: '300' }, key);
    const again = await withdraw(ctx, user.token, { amount: 300.0 }, key);
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await withdrawalCount(user.id)).toBe(1);
    expect(await ctx.balanceOf(user.token)).toBe('700.00');
  });

  it('refuses the same key with a different body and changes nothing', async () => {
    const user = await payee(ctx, 1000);
    const key = `changed-${user.id}`;
    expect((await withdraw(ctx, user.token, { amount: 300 }, key)).status).toBe(200);
    const changed = await withdraw(ctx, user.token, { amount: 301 }, key);
    expect(changed.status).toBe(409);
    expect(changed.body.key).toBe('idempotency_key_reused');
    expect(await withdrawalCount(user.id)).toBe(1);
    expect(await ctx.balanceOf(user.token)).toBe('700.00');
  });

  it('makes one withdrawal of 20 concurrent requests with one key, all answered alike', async () => {
    const user = await payee(ctx, 1000);
    const key = `burst-${user.id}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => withdraw(ctx, user.token, { amount: 400 }, key)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await withdrawalCount(user.id)).toBe(1);
    expect(await ctx.balanceOf(user.token)).toBe('600.00');
  });

  it('keeps keys per user and refuses a malformed one', async () => {
    const a = await payee(ctx, 1000);
    const b = await payee(ctx, 1000);
    const shared = `shared-${a.id}-${b.id}`;
    const first = await withdraw(ctx, a.token, { amount: 100 }, shared);
    const second = await withdraw(ctx, b.token, { amount: 100 }, shared);
    expect(second.status).toBe(200);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    const bad = await withdraw(ctx, a.token, { amount: 100 }, 'x'.repeat(101));
    expect(bad.status).toBe(400);
    expect(bad.body.key).toBe('idempotency_key_invalid');
  });
});

describe('admin review', () => {
  it('rejects with a reason: the hold goes back, the user sees the reason and is notified', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 400 })).body.data;
    const noReason = await review(ctx, id, 'reject', ' ');
    expect(noReason.status).toBe(400);
    expect(noReason.body.key).toBe('enter_reject_reason');

    const res = await review(ctx, id, 'reject', 'Name does not match the bank account');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      state: 'rejected',
      stateLabelKey: 'withdrawal_state_rejected',
      reason: 'Name does not match the bank account',
      username: user.username,
      reviewerId: expect.any(Number),
      account: { accountNo: 'asha.k@okaxis' },
    });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'rejected',
      reason: 'Name does not match the bank account',
      finishedAt: expect.any(String),
      history: [
        { state: 'pending', reason: null },
        { state: 'rejected', reason: 'Name does not match the bank account' },
      ],
    });
    const movements = await ctx.get(`${API}/user/balance/list`, { token: user.token });
    expect(movements.body.data.items[0]).toMatchObject({ type: 'withdrawal_refund', amount: '400.00' });
    const notes = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => [n.kind, n.params.reason])).toContainEqual([
      'withdrawal_rejected',
      'Name does not match the bank account',
    ]);
  });

  it('queues exactly one payout for ten concurrent approvals; the other nine get 409', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 500 })).body.data;
    await ctx.adminToken();
    const results = await Promise.all(Array.from({ length: 10 }, () => review(ctx, id, 'approve')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.key === 'withdrawal_state_conflict')).toHaveLength(9);
    const queued = await ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payout:dispatch:${id}`));
    expect(queued).toHaveLength(1);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'approved',
      history: [{ state: 'pending' }, { state: 'approved' }],
    });
  });

  it('answers 409 to an illegal change, 404 to an unknown id, and 403 to a user', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 200 })).body.data;
    expect((await review(ctx, id, 'reject', 'No')).status).toBe(200);
    const again = await review(ctx, id, 'approve');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      key: 'withdrawal_state_conflict',
      data: { current: { state: 'rejected', by: ctx.admin.username } },
    });
    expect((await review(ctx, 99_999_999, 'approve')).status).toBe(404);
    const asUser = await ctx.post(`${API}/admin/withdraw/review`, { id, action: 'approve' }, { token: user.token });
    expect(asUser.status).toBe(403);
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  it('refuses to let an admin review their own withdrawal', async () => {
    const adminId = (await ctx.get(`${API}/user/user/detail`, { token: await ctx.adminToken() })).body.data.id;
    await bindUpi(ctx, await ctx.adminToken(), 'admin@okicici');
    // Nobody credits themselves: a second admin funds the first.
    const second = await ctx.staff('admin');
    const funded = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: adminId, amount: 300, remark: 'x' },
      { token: second.token },
    );
    expect(funded.status).toBe(200);
    const own = await withdraw(ctx, await ctx.adminToken(), { amount: 150 });
    expect(own.status).toBe(200);
    const res = await review(ctx, own.body.data.id, 'approve');
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('cannot_review_own_withdrawal');
    const [row] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, own.body.data.id));
    expect(row?.state).toBe('pending');
  });
});

describe('admin withdraw/list', () => {
  it('puts pending ones first, oldest first, then the rest newest first, across pages', async () => {
    const user = await payee(ctx, 5000);
    const ids: number[] = [];
    for (const amount of [100, 110, 120]) ids.push((await withdraw(ctx, user.token, { amount })).body.data.id);
    ctx.advance(24 * 3600_000);
    for (const amount of [130, 140]) ids.push((await withdraw(ctx, user.token, { amount })).body.data.id);
    const [a, b, c, d, e] = ids as [number, number, number, number, number];
    await review(ctx, b, 'reject', 'No');
    await review(ctx, d, 'reject', 'No');

    const token = await ctx.adminToken();
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `${ADMIN_LIST}?userId=${user.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await ctx.get(url, { token });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items.map((i: { id: number }) => i.id));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual([a, c, e, d, b]);

    const rejected = await ctx.get(`${ADMIN_LIST}?userId=${user.id}&state=rejected`, { token });
    expect(rejected.body.data.items.map((i: { id: number }) => i.id)).toEqual([d, b]);
    expect(rejected.body.data.items[0].history.map((h: { actorId: number | null }) => h.actorId)).toEqual([
      user.id,
      expect.any(Number),
    ]);
  });

  it('filters by India calendar day', async () => {
    const user = await payee(ctx, 5000);
    const day = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
    const today = day(ctx.now());
    const first = (await withdraw(ctx, user.token, { amount: 100 })).body.data.id;
    ctx.advance(24 * 3600_000);
    const tomorrow = day(ctx.now());
    const second = (await withdraw(ctx, user.token, { amount: 100 })).body.data.id;
    const token = await ctx.adminToken();
    const ids = async (query: string) =>
      (await ctx.get(`${ADMIN_LIST}?userId=${user.id}&${query}`, { token })).body.data.items.map(
        (i: { id: number }) => i.id,
      );
    expect(await ids(`from=${today}&to=${today}`)).toEqual([first]);
    expect(await ids(`from=${tomorrow}`)).toEqual([second]);
    expect(await ids(`to=${tomorrow}`)).toEqual([first, second]);
    expect((await ctx.get(`${ADMIN_LIST}?from=yesterday`, { token })).status).toBe(400);
  });

  it('is for admins only', async () => {
    const user = await ctx.newUser();
    expect((await ctx.get(ADMIN_LIST, { token: user.token })).status).toBe(403);
    expect((await ctx.get(ADMIN_LIST)).status).toBe(401);
  });
});

describe('withdraw/list pages', () => {
  it('walks the user own withdrawals newest first without duplicates', async () => {
    const user = await payee(ctx, 1000);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await withdraw(ctx, user.token, { amount: 100 + i })).body.data.id);
    const first = await ctx.get(`${API}/user/withdraw/list?limit=2`, { token: user.token });
    const second = await ctx.get(`${API}/user/withdraw/list?limit=2&cursor=${first.body.data.nextCursor}`, {
      token: user.token,
    });
    expect([...first.body.data.items, ...second.body.data.items].map((i: { id: number }) => i.id)).toEqual(
      ids.reverse(),
    );
    expect(second.body.data.nextCursor).toBeNull();
  });
});

describe('admin settings', () => {
  it('shows the defaults, changes only the fields sent, refuses a minimum above the maximum, audits', async () => {
    const token = await ctx.adminToken();
    const get = await ctx.get(SETTINGS, { token });
    expect(get.body.data.withdrawal).toEqual({
      min: '100.00',
      max: '50000.00',
      dailyCount: 3,
      dailyTotal: '100000.00',
      fee: '0.00',
      payoutHours: 24,
    });
    expect((await setLimits({ min: '150.50' })).withdrawal).toEqual({
      min: '150.50',
      max: '50000.00',
      dailyCount: 3,
      dailyTotal: '100000.00',
      fee: '0.00',
      payoutHours: 24,
    });
    const bad = await ctx.control(SET, { withdrawal: { max: 100 } }, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.key).toBe('withdrawal_limits_invalid');
    const user = await payee(ctx, 1000);
    expect((await withdraw(ctx, user.token, { amount: 150 })).body.message).toBe('The minimum withdrawal is ₹150.50');
    await setLimits({ min: 100 });
    const audits = await ctx.db.execute(sql`select count(*)::int as n from audit_log where action = 'settings.set'`);
    expect(Number((audits as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBeGreaterThanOrEqual(2);
    const user2 = await ctx.newUser();
    expect((await ctx.get(SETTINGS, { token: user2.token })).status).toBe(403);
  });
});

describe('the ledger check', () => {
  it('reports a hold that differs from the open withdrawals', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 300 })).body.data;
    await ctx.db
      .transaction(async (tx) => {
        await tx.update(withdrawals).set({ amount: 299_00n }).where(eq(withdrawals.id, id));
        const result = await checkLedger(tx);
        expect(result.problems).toEqual([
          expect.objectContaining({ rule: 'hold_mismatch', detail: expect.stringContaining('29900 paise') }),
        ]);
        tx.rollback();
      })
      .catch((error: Error) => {
        if (!/rollback/i.test(error.message)) throw error;
      });
    const held = await ctx.db
      .select({ n: count() })
      .from(postings)
      .where(inArray(postings.idempotencyKey, [`withdrawal:${id}:hold`]));
    expect(held[0]?.n).toBe(1);
  });
});
