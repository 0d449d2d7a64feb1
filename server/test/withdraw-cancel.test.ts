import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entries, notifications, postings, withdrawalHistory, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, nowSeconds, ownWithdrawal, payee, review, withdraw } from './payout-helpers';

const SECRET = 'withdraw-cancel-test-secret';
const CANCEL = `${API}/user/withdraw/cancel`;
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

async function setWithdrawalSettings(withdrawal: Record<string, unknown>) {
  const res = await ctx.control(`${API}/admin/settings/set`, { withdrawal }, { token: await ctx.adminToken() });
  expect(res.status).toBe(200);
  return res.body.data.withdrawal;
}

async function stateOf(id: number) {
  const [row] = await ctx.db.select({ state: withdrawals.state }).from(withdrawals).where(eq(withdrawals.id, id));
  return row?.state;
}

describe('withdraw/cancel', () => {
  it('returns the hold, records the history and notifies, like a rejection', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 300 })).body.data;
    expect(await ctx.balanceOf(user.token)).toBe('700.00');

    const res = await ctx.post(CANCEL, { id }, { token: user.token, lang: 'hi_IN' });
    expect(res.status).toBe(200);
    expect(res.body.key).toBe('withdrawal_cancelled');
    expect(res.body.message).toBe('निकासी रद्द हो गई, राशि आपके बैलेंस में वापस आ गई है');
    expect(res.body.data).toMatchObject({ id, state: 'cancelled', stateLabelKey: 'withdrawal_state_cancelled' });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');

    const item = await ownWithdrawal(ctx, user.token, id);
    expect(item?.history.map((h) => h.state)).toEqual(['pending', 'cancelled']);
    expect(item?.finishedAt).not.toBeNull();
    const [history] = await ctx.db
      .select()
      .from(withdrawalHistory)
      .where(and(eq(withdrawalHistory.withdrawalId, id), eq(withdrawalHistory.toState, 'cancelled')));
    expect(history?.actorId).toBe(user.id);
    const notes = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.kind)).toContain('withdrawal_cancelled');
    const inbox = await ctx.get(`${API}/common/notice/list?limit=50`, { token: user.token });
    expect(JSON.stringify(inbox.body.data)).toContain('withdrawal_cancelled');

    // Once cancelled it stays cancelled: a second cancel and a late approval both get 409.
    expect((await ctx.post(CANCEL, { id }, { token: user.token })).body.key).toBe('withdrawal_state_conflict');
    expect((await review(ctx, id, 'approve')).body.key).toBe('withdrawal_state_conflict');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  it("refuses another user's withdrawal as not found, and one that is no longer under review", async () => {
    const owner = await payee(ctx, 500);
    const other = await ctx.newUser();
    const { id } = (await withdraw(ctx, owner.token, { amount: 200 })).body.data;
    const stolen = await ctx.post(CANCEL, { id }, { token: other.token });
    expect(stolen.status).toBe(404);
    expect(stolen.body.key).toBe('withdrawal_not_found');
    expect((await ctx.post(CANCEL, { id: 99999999 }, { token: owner.token })).status).toBe(404);
    expect((await ctx.post(CANCEL, { id: 'x' }, { token: owner.token })).body.key).toBe('withdrawal_not_found');
    expect((await ctx.post(CANCEL, { id })).status).toBe(401);

    expect((await review(ctx, id, 'approve')).status).toBe(200);
    const late = await ctx.post(CANCEL, { id }, { token: owner.token });
    expect(late.status).toBe(409);
    expect(late.body.key).toBe('withdrawal_state_conflict');
    expect(await stateOf(id)).toBe('approved');
  });

  it('races a reviewer: cancel and approve at the same moment, exactly one wins, the ledger balances', async () => {
    for (let round = 0; round < 6; round++) {
      const user = await payee(ctx, 1000);
      const { id } = (await withdraw(ctx, user.token, { amount: 400 })).body.data;
      const [cancel, approve] = await Promise.all([
        ctx.post(CANCEL, { id }, { token: user.token }),
        review(ctx, id, round % 2 === 0 ? 'approve' : 'reject', 'checked'),
      ]);
      const wins = [cancel.status, approve.status].filter((s) => s === 200);
      expect(wins).toHaveLength(1);
      const loser = cancel.status === 200 ? approve : cancel;
      expect(loser.status).toBe(409);
      expect(loser.body.key).toBe('withdrawal_state_conflict');
      const state = await stateOf(id);
      if (cancel.status === 200) expect(state).toBe('cancelled');
      else expect(state).toBe(round % 2 === 0 ? 'approved' : 'rejected');
      // One refund at most, and the balance says where the money is.
      const [refunds] = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(postings)
        .where(eq(postings.idempotencyKey, `withdrawal:${id}:refund`));
      expect(refunds?.n).toBe(state === 'approved' ? 0 : 1);
      expect(await ctx.balanceOf(user.token)).toBe(state === 'approved' ? '600.00' : '1000.00');
    }
  });
});

describe('the withdrawal fee and payout time', () => {
  it('are settings shown to the withdraw dialog (no fee and 24 hours by default)', async () => {
    const user = await payee(ctx, 100);
    const limits = await ctx.get(`${API}/user/withdraw/limits`, { token: user.token });
    expect(limits.body.data).toMatchObject({ fee: '0.00', payoutHours: 24 });
    const settings = await ctx.get(`${API}/admin/settings/get`, { token: await ctx.adminToken() });
    expect(settings.body.data.withdrawal).toMatchObject({ fee: '0.00', payoutHours: 24 });
  });

  it('refuses a fee that would swallow the minimum withdrawal', async () => {
    const res = await ctx.control(
      `${API}/admin/settings/set`,
      { withdrawal: { fee: '100', min: '100' } },
      { token: await ctx.adminToken() },
    );
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('withdrawal_fee_too_high');
  });

  it('takes a non-zero fee from the amount when paid: the account gets the rest, the platform the fee', async () => {
    expect(await setWithdrawalSettings({ fee: '5.50', payoutHours: 48 })).toMatchObject({
      fee: '5.50',
      payoutHours: 48,
    });
    try {
      const user = await payee(ctx, 1000);
      expect((await ctx.get(`${API}/user/withdraw/limits`, { token: user.token })).body.data).toMatchObject({
        fee: '5.50',
        payoutHours: 48,
      });
      const { id } = (await withdraw(ctx, user.token, { amount: 200 })).body.data;
      expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
        amount: '200.00',
        fee: '5.50',
        payout: '194.50',
      });
      expect(await ctx.balanceOf(user.token)).toBe('800.00');

      // The fee is fixed when requested: a later change does not touch this withdrawal.
      await setWithdrawalSettings({ fee: '1' });
      expect((await review(ctx, id, 'approve')).status).toBe(200);
      await ctx.worker.jobs.runDue();
      expect(await stateOf(id)).toBe('processing');

      // The gateway is asked to pay 194.50 and reports that amount back.
      const wrong = await ctx.getText(
        callbackUrl(
          { orderNo: String(id), status: 'success', amount: '200.00', reference: 'R1', ts: nowSeconds(ctx) },
          SECRET,
        ),
      );
      expect(wrong.status).toBe(400);
      const paid = await ctx.getText(
        callbackUrl(
          { orderNo: String(id), status: 'success', amount: '194.50', reference: 'R1', ts: nowSeconds(ctx) },
          SECRET,
        ),
      );
      expect(paid.text).toBe('success');
      expect(await stateOf(id)).toBe('paid');

      const lines = await ctx.db
        .select({ amount: entries.amount })
        .from(entries)
        .innerJoin(postings, eq(postings.id, entries.postingId))
        .where(eq(postings.idempotencyKey, `withdrawal:${id}:paid`));
      expect(lines.map((l) => l.amount).sort((a, b) => Number(a - b))).toEqual([-20000n, 550n, 19450n]);
      expect(await ctx.balanceOf(user.token)).toBe('800.00');
    } finally {
      await setWithdrawalSettings({ fee: '0', payoutHours: 24 });
    }
  });
});
