import { SYSTEM_TASK_IDS } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, nowSeconds, payee, review, withdraw } from './payout-helpers';

/** The first-withdrawal reward is for money paid out, and the paid notice quotes what was paid. */
const SECRET = 'first-withdrawal-test-secret';
const TASK = SYSTEM_TASK_IDS.firstWithdrawal;
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

const finish = (token: string) => ctx.post(`${API}/user/task/finish`, { taskId: TASK }, { token });

async function taskItem(token: string) {
  const res = await ctx.get(`${API}/user/task/list`, { token });
  expect(res.status).toBe(200);
  return (res.body.data.sections as { items: { id: number; state: string; progress: number; title: string }[] }[])
    .flatMap((s) => s.items)
    .find((i) => i.id === TASK);
}

async function setFee(fee: string) {
  const res = await ctx.control(
    `${API}/admin/settings/set`,
    { withdrawal: { fee } },
    { token: await ctx.adminToken() },
  );
  expect(res.status).toBe(200);
}

async function pay(id: number, payout: string) {
  expect((await review(ctx, id, 'approve')).status).toBe(200);
  await ctx.worker.jobs.runDue();
  const paid = await ctx.getText(
    callbackUrl(
      { orderNo: String(id), status: 'success', amount: payout, reference: `R${id}`, ts: nowSeconds(ctx) },
      SECRET,
    ),
  );
  expect(paid.text).toBe('success');
  const [row] = await ctx.db.select({ state: withdrawals.state }).from(withdrawals).where(eq(withdrawals.id, id));
  expect(row?.state).toBe('paid');
}

describe('the first-withdrawal task', () => {
  it('is not met by a withdrawal that was cancelled or rejected: Claim pays nothing', async () => {
    const user = await payee(ctx, 1000);
    const cancelled = (await withdraw(ctx, user.token, { amount: 300 })).body.data.id as number;
    expect((await taskItem(user.token))?.state).not.toBe('claimable');
    expect((await ctx.post(`${API}/user/withdraw/cancel`, { id: cancelled }, { token: user.token })).status).toBe(200);
    const rejected = (await withdraw(ctx, user.token, { amount: 200 })).body.data.id as number;
    expect((await review(ctx, rejected, 'reject', 'Name does not match')).status).toBe(200);

    expect(await taskItem(user.token)).toMatchObject({ progress: 0 });
    expect(await finish(user.token)).toMatchObject({ status: 409, body: { key: 'task_condition_unmet' } });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  it('is met once a withdrawal was paid, says so in its title, and the paid notice quotes the net', async () => {
    await setFee('5');
    try {
      const user = await payee(ctx, 1000);
      expect((await taskItem(user.token))?.title).toBe('Get your first withdrawal paid');
      const id = (await withdraw(ctx, user.token, { amount: 150 })).body.data.id as number;
      expect(await finish(user.token)).toMatchObject({ status: 409, body: { key: 'task_condition_unmet' } });
      await pay(id, '145.00');

      expect(await taskItem(user.token)).toMatchObject({ state: 'claimable', progress: 1 });
      expect((await finish(user.token)).status).toBe(200);
      expect(await ctx.balanceOf(user.token)).toBe('860.00');

      for (const [lang, text] of [
        ['en_US', '₹145.00 has been paid to your account.'],
        ['hi_IN', '₹145.00 आपके खाते में भेज दिए गए हैं।'],
      ] as const) {
        const inbox = await ctx.get(`${API}/common/notice/list?limit=50&kind=notification`, {
          token: user.token,
          lang,
        });
        const paid = (inbox.body.data.items as { body: string; notification: { type: string; params: object } }[]).find(
          (item) => item.notification?.type === 'withdrawal_paid',
        );
        expect(paid?.body).toBe(text);
        expect(paid?.notification.params).toMatchObject({ amount: '150.00', fee: '5.00', net: '145.00' });
      }
    } finally {
      await setFee('0');
    }
  });
});
