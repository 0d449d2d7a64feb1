import { businessDayOf, lastBusinessDays, startOfBusinessDay } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entries, payoutCallbacks, payoutMismatches, users, withdrawalHistory, withdrawals } from '../src/db/schema';
import { checkLedger, post } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
const DAY_MS = 86_400_000;
let ctx: TestContext;
let adminToken: string;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.adminToken();
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** Credits `paise` to a user's wallet as `type`, booked at `at`. */
async function credit(type: 'task_reward' | 'rebate' | 'manual_credit', userId: number, paise: bigint, at: Date) {
  const posting = await ctx.db.transaction((tx) =>
    post(tx, {
      type,
      idempotencyKey: `trends:${type}:${++seq}`,
      entries: [
        { account: { kind: type === 'manual_credit' ? 'platform_revenue' : 'platform_rewards' }, amount: -paise },
        { account: { userId, kind: 'wallet' }, amount: paise },
      ],
    }),
  );
  await ctx.db.update(entries).set({ createdAt: at }).where(eq(entries.postingId, posting.postingId));
}

/** A finished withdrawal with the states it entered and when. */
async function withdrawal(
  userId: number,
  paise: bigint,
  history: [state: 'pending' | 'approved' | 'paid' | 'failed', at: Date][],
) {
  const [row] = await ctx.db
    .insert(withdrawals)
    .values({
      userId,
      accountType: 'upi',
      accountNo: 'user@upi',
      accountName: 'User',
      ifsc: '',
      amount: paise,
      state: history.at(-1)?.[0] ?? 'pending',
    })
    .returning({ id: withdrawals.id });
  const id = row?.id ?? 0;
  for (const [toState, createdAt] of history) {
    await ctx.db.insert(withdrawalHistory).values({ withdrawalId: id, toState, createdAt });
  }
  return id;
}

describe("admin/dashboard/trends and user/balance/daily: India's calendar days", () => {
  it('puts what happened either side of midnight in India on its own day', async () => {
    const a = await ctx.newUser();
    const b = await ctx.newUser();
    // Registration's own rewards and every earlier row move out of the window, so the figures below are exact.
    const longAgo = new Date(ctx.now().getTime() - 60 * DAY_MS);
    await ctx.db.update(users).set({ createdAt: longAgo });
    await ctx.db.update(entries).set({ createdAt: longAgo });

    const today = businessDayOf(ctx.now());
    const midnight = startOfBusinessDay(today);
    const before = (ms: number) => new Date(midnight.getTime() - ms);
    const after = (ms: number) => new Date(midnight.getTime() + ms);
    await ctx.db
      .update(users)
      .set({ createdAt: before(1000) })
      .where(eq(users.id, a.id));
    await ctx.db.update(users).set({ createdAt: midnight }).where(eq(users.id, b.id));
    await credit('task_reward', a.id, 100n, before(1));
    await credit('rebate', b.id, 50n, midnight);
    await credit('task_reward', b.id, 200n, after(3_600_000));
    await credit('manual_credit', b.id, 1000n, after(1000));
    const paid = await withdrawal(a.id, 300n, [
      ['pending', before(1000)],
      ['approved', after(1000)],
      ['paid', after(2000)],
    ]);
    await withdrawal(b.id, 400n, [
      ['pending', after(10_000)],
      ['failed', after(20_000)],
    ]);
    const [callback] = await ctx.db
      .insert(payoutCallbacks)
      .values({ withdrawalId: paid, gateway: 'sandbox', eventKey: 'trends:1', status: 'failed', payload: {} })
      .returning({ id: payoutCallbacks.id });
    await ctx.db.insert(payoutMismatches).values({
      withdrawalId: paid,
      gateway: 'sandbox',
      dedupeKey: 'trends:1',
      state: 'paid',
      callbackStatus: 'failed',
      callbackId: callback?.id ?? 0,
      createdAt: before(1),
    });

    const res = await ctx.get(`${API}/admin/dashboard/trends`, { token: adminToken });
    expect(res.status).toBe(200);
    const { timeZone, days } = res.body.data;
    expect(timeZone).toBe('Asia/Kolkata');
    expect(days.map((d: { day: string }) => d.day)).toEqual(lastBusinessDays(ctx.now(), 30));
    const none = { count: 0, amount: '0.00' };
    expect(days.at(-2)).toEqual({
      day: businessDayOf(before(1)),
      signUps: 1,
      requested: { count: 1, amount: '3.00' },
      approved: none,
      paid: none,
      failed: none,
      rewards: '1.00',
      rebates: '0.00',
      mismatches: 1,
    });
    expect(days.at(-1)).toEqual({
      day: today,
      signUps: 1,
      requested: { count: 1, amount: '4.00' },
      approved: { count: 1, amount: '3.00' },
      paid: { count: 1, amount: '3.00' },
      failed: { count: 1, amount: '4.00' },
      rewards: '2.00',
      rebates: '0.50',
      mismatches: 0,
    });
    for (const day of days.slice(0, -2)) {
      expect(day).toMatchObject({ signUps: 0, requested: none, paid: none, rewards: '0.00', mismatches: 0 });
    }

    // The user's own chart: the same days, by kind; the manual credit counts as income.
    const mine = await ctx.get(`${API}/user/balance/daily?days=7`, { token: b.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.days).toHaveLength(7);
    expect(mine.body.data.days.at(-1)).toEqual({
      day: today,
      task_reward: '2.00',
      rebate: '0.50',
      linked_income: '0.00',
      manual_credit: '10.00',
    });
    const theirs = await ctx.get(`${API}/user/balance/daily?days=30`, { token: a.token });
    expect(theirs.body.data.days).toHaveLength(30);
    expect(theirs.body.data.days.at(-2)).toMatchObject({ day: businessDayOf(before(1)), task_reward: '1.00' });
    expect(theirs.body.data.days.at(-1)).toMatchObject({ task_reward: '0.00', rebate: '0.00' });
  });

  it('refuses a range the chart does not offer, and non-staff on the trends', async () => {
    const user = await ctx.newUser();
    const bad = await ctx.get(`${API}/user/balance/daily?days=5`, { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body.key).toBe('validation_failed');
    const denied = await ctx.get(`${API}/admin/dashboard/trends`, { token: user.token });
    expect(denied.status).toBe(403);
  });
});
