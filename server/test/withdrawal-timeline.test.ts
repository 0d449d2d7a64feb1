import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, nowSeconds, ownWithdrawal, payee, review, withdraw } from './payout-helpers';

/**
 * What the owner of a withdrawal reads in /List4: its timeline (requested → under review → approved →
 * sent to the bank → paid with the UTR, or returned), each step with its time, and, once the money is
 * back in the balance, how much came back; and the daily count as docs/decisions/withdrawals.md sets it
 * for cancelled requests.
 */
const SECRET = 'withdrawal-timeline-test-secret';
const CANCEL = `${API}/user/withdraw/cancel`;
const LIMITS = `${API}/user/withdraw/limits`;
let ctx: TestContext;

beforeAll(async () => {
  // The sandbox would pay only after an hour: the tests sign the gateway's callback themselves.
  ctx = await createTestContext({ SANDBOX_PAYOUT_DELAY_MS: '3600000', PAYOUT_GATEWAY_SECRET: SECRET });
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

async function settle(id: number, amount: string, status: 'success' | 'failed', reference = '') {
  const params: Record<string, string> = { orderNo: String(id), status, amount, ts: nowSeconds(ctx) };
  if (reference) params.reference = reference;
  const res = await ctx.getText(callbackUrl(params, SECRET));
  expect(res.text).toBe('success');
}

/** The test clock runs on from where it was moved: a step's time is within a few seconds of the move. */
const near = (ms: number) =>
  expect.toSatisfy((value: unknown) => typeof value === 'string' && Math.abs(Date.parse(value) - ms) < 5000);

describe('the timeline of a withdrawal', () => {
  it('walks requested → under review → approved → sent → paid, each step at its time, the UTR on paid', async () => {
    const user = await payee(ctx, 1000);
    const requestedAt = ctx.now().getTime();
    const { id } = (await withdraw(ctx, user.token, { amount: 150 })).body.data;

    let item = await ownWithdrawal(ctx, user.token, id);
    expect(item?.timeline).toEqual([
      { step: 'requested', status: 'done', at: near(requestedAt), detail: null },
      { step: 'review', status: 'current', at: near(requestedAt), detail: null },
      { step: 'approved', status: 'todo', at: null, detail: null },
      { step: 'sent', status: 'todo', at: null, detail: null },
      { step: 'paid', status: 'todo', at: null, detail: null },
    ]);
    expect(item?.returned).toBeNull();

    ctx.advance(30 * 60_000);
    const approvedAt = ctx.now().getTime();
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    ctx.advance(10 * 60_000);
    const paidAt = ctx.now().getTime();
    await settle(id, '150.00', 'success', 'UTR4471230098');

    item = await ownWithdrawal(ctx, user.token, id);
    const sent = item?.timeline.find((step) => step.step === 'sent');
    expect(item?.timeline).toEqual([
      { step: 'requested', status: 'done', at: near(requestedAt), detail: null },
      { step: 'review', status: 'done', at: near(requestedAt), detail: null },
      { step: 'approved', status: 'done', at: near(approvedAt), detail: null },
      { step: 'sent', status: 'done', at: sent?.at, detail: null },
      { step: 'paid', status: 'done', at: near(paidAt), detail: 'UTR4471230098' },
    ]);
    // Sent to the bank when the approval handed it to the gateway, before the bank answered.
    expect(Date.parse(String(sent?.at))).toBeGreaterThanOrEqual(approvedAt);
    expect(Date.parse(String(sent?.at))).toBeLessThan(paidAt + 5000);
    expect(item?.returned).toBeNull();
  });

  it('ends "returned" with the bank\'s reason and the amount back in the balance when the payment fails', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 200 })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    ctx.advance(60_000);
    const failedAt = ctx.now().getTime();
    await settle(id, '200.00', 'failed');

    const item = await ownWithdrawal(ctx, user.token, id);
    expect(item?.state).toBe('failed');
    expect(item?.timeline.map((step) => [step.step, step.status])).toEqual([
      ['requested', 'done'],
      ['review', 'done'],
      ['approved', 'done'],
      ['sent', 'done'],
      ['returned', 'done'],
    ]);
    expect(item?.timeline.at(-1)?.at).toEqual(near(failedAt));
    expect(item?.returned).toBe('200.00');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  it('reads a cancelled withdrawal as cancelled with the whole amount returned, in the response and the list', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 150 })).body.data;
    ctx.advance(5 * 60_000);
    const cancelledAt = ctx.now().getTime();
    const res = await ctx.post(CANCEL, { id }, { token: user.token });
    expect(res.status).toBe(200);
    for (const item of [res.body.data, await ownWithdrawal(ctx, user.token, id)]) {
      expect(item).toMatchObject({ state: 'cancelled', returned: '150.00' });
      expect(item.timeline.map((step: { step: string; status: string }) => [step.step, step.status])).toEqual([
        ['requested', 'done'],
        ['review', 'done'],
        ['cancelled', 'done'],
      ]);
      expect(item.timeline.at(-1).at).toEqual(near(cancelledAt));
    }
  });

  it('ends "rejected" with the reviewer\'s reason and the amount returned', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 120 })).body.data;
    expect((await review(ctx, id, 'reject', 'Name does not match')).status).toBe(200);
    const item = await ownWithdrawal(ctx, user.token, id);
    expect(item?.timeline.map((step) => step.step)).toEqual(['requested', 'review', 'rejected']);
    expect(item?.timeline.at(-1)?.detail).toBe('Name does not match');
    expect(item?.returned).toBe('120.00');
  });
});

describe('cancelled requests and the daily count', () => {
  afterAll(async () => {
    const res = await ctx.control(
      `${API}/admin/settings/set`,
      { withdrawal: { dailyCount: 3 } },
      { token: await ctx.adminToken() },
    );
    expect(res.status).toBe(200);
  });

  it('does not count up to three cancellations a day; the fourth counts; rejected ones always count', async () => {
    const user = await payee(ctx, 5000);
    const requestAndCancel = async () => {
      const made = await withdraw(ctx, user.token, { amount: 100 });
      expect(made.status).toBe(200);
      expect((await ctx.post(CANCEL, { id: made.body.data.id }, { token: user.token })).status).toBe(200);
    };
    const limits = async () => (await ctx.get(LIMITS, { token: user.token })).body.data;

    await requestAndCancel();
    await requestAndCancel();
    await requestAndCancel();
    expect(await limits()).toMatchObject({
      dailyCount: 3,
      todayCount: 0,
      todayCancelled: 3,
      requestsLeft: 3,
      todayTotal: '0.00',
    });

    // The fourth cancellation of the day is one of the day's requests.
    await requestAndCancel();
    expect(await limits()).toMatchObject({ todayCount: 0, todayCancelled: 4, requestsLeft: 2 });

    const rejected = await withdraw(ctx, user.token, { amount: 100 });
    expect((await review(ctx, rejected.body.data.id, 'reject', 'Wrong account')).status).toBe(200);
    expect((await withdraw(ctx, user.token, { amount: 100 })).status).toBe(200);
    expect(await limits()).toMatchObject({ todayCount: 2, todayCancelled: 4, requestsLeft: 0, todayTotal: '200.00' });

    const refused = await withdraw(ctx, user.token, { amount: 100 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ key: 'withdrawal_daily_count_reached' });

    // A new India day starts afresh.
    ctx.advance(24 * 3600_000);
    expect(await limits()).toMatchObject({ todayCount: 0, todayCancelled: 0, requestsLeft: 3 });
    expect((await withdraw(ctx, user.token, { amount: 100 })).status).toBe(200);
  });

  it('leaves a cancelled amount out of the daily total', async () => {
    const set = await ctx.control(
      `${API}/admin/settings/set`,
      { withdrawal: { dailyCount: 3, dailyTotal: 1000 } },
      { token: await ctx.adminToken() },
    );
    expect(set.status).toBe(200);
    try {
      const user = await payee(ctx, 5000);
      const big = await withdraw(ctx, user.token, { amount: 900 });
      expect((await ctx.post(CANCEL, { id: big.body.data.id }, { token: user.token })).status).toBe(200);
      expect((await withdraw(ctx, user.token, { amount: 1000 })).status).toBe(200);
    } finally {
      await ctx.control(
        `${API}/admin/settings/set`,
        { withdrawal: { dailyTotal: 100000 } },
        { token: await ctx.adminToken() },
      );
    }
  });
});
