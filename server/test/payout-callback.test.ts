import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs, notifications, postings, sandboxPayouts, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, nowSeconds, ownWithdrawal, payee, review, withdraw } from './payout-helpers';

const SECRET = 'callback-test-secret-0123456789';

/** Postings of a withdrawal by what they did (hold, refund, paid). */
async function postingsOf(ctx: TestContext, id: number) {
  const rows = await ctx.db
    .select({ key: postings.idempotencyKey })
    .from(postings)
    .where(like(postings.idempotencyKey, `withdrawal:${id}:%`));
  return rows.map((r) => r.key.split(':')[2]).sort();
}

async function stateOf(ctx: TestContext, id: number) {
  const [row] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
  return row?.state;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the callback, signed by hand (the sandbox would answer only after an hour)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ SANDBOX_PAYOUT_DELAY_MS: '3600000', PAYOUT_GATEWAY_SECRET: SECRET });
  });
  afterEach(async () => {
    expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A withdrawal of `rupees` that was approved and handed to the gateway. */
  async function processing(rupees = 250) {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: rupees })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    expect(await stateOf(ctx, id)).toBe('processing');
    return { user, id: id as number };
  }

  const success = (id: number, amount = '250.00') => ({
    orderNo: String(id),
    status: 'success',
    amount,
    reference: '402912345678',
    ts: nowSeconds(ctx),
  });

  it('refuses a bad, altered or missing signature, a stale time, an unknown order, a wrong amount: nothing changes', async () => {
    const { user, id } = await processing();
    const good = success(id);
    const tampered = new URL(callbackUrl(good, SECRET), 'http://x');
    tampered.searchParams.set('amount', '250.01');
    const cases: [string, number, string][] = [
      [callbackUrl(good, SECRET, 'ab'.repeat(32)), 401, 'payout_bad_signature'],
      [`${tampered.pathname}${tampered.search}`, 401, 'payout_bad_signature'],
      [`${API}/common/pay/notify/masterpay?${new URLSearchParams(good)}`, 401, 'payout_bad_signature'],
      [callbackUrl(good, 'another-secret-0123456789'), 401, 'payout_bad_signature'],
      // Well outside the 300 s window: one second past it became fresh again when the loop ran slowly.
      [callbackUrl({ ...good, ts: nowSeconds(ctx, -600) }, SECRET), 401, 'payout_stale_timestamp'],
      [callbackUrl({ ...good, ts: nowSeconds(ctx, 600) }, SECRET), 401, 'payout_stale_timestamp'],
      [callbackUrl({ ...good, orderNo: '99999999' }, SECRET), 400, 'payout_unknown_order'],
      [callbackUrl({ ...good, orderNo: 'W17' }, SECRET), 400, 'payout_unknown_order'],
      [callbackUrl({ ...good, amount: '249.00' }, SECRET), 400, 'payout_amount_mismatch'],
      [callbackUrl({ ...good, status: 'done' }, SECRET), 400, 'validation_failed'],
    ];
    const logged = ctx.logs.filter((l) => l.includes('payout callback refused')).length;
    for (const [url, status, key] of cases) {
      const res = await ctx.get(url);
      expect([res.status, res.body.key], url).toEqual([status, key]);
      expect(res.body).toMatchObject({ code: status, data: { requestId: expect.any(String) } });
    }
    expect(ctx.logs.filter((l) => l.includes('payout callback refused')).length - logged).toBe(cases.length);
    expect(await stateOf(ctx, id)).toBe('processing');
    expect(await postingsOf(ctx, id)).toEqual(['hold']);
    expect(await ctx.balanceOf(user.token)).toBe('750.00');
  });

  it('applies a callback delivered three times once, answering plain "success" each time', async () => {
    const { user, id } = await processing();
    const url = callbackUrl(success(id), SECRET);
    for (let i = 0; i < 3; i++) {
      const res = await ctx.getText(url);
      expect(res).toEqual({ status: 200, text: 'success', contentType: 'text/plain; charset=utf-8' });
    }
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'paid',
      stateLabelKey: 'withdrawal_state_paid',
      reference: '402912345678',
      history: [
        { state: 'pending' },
        { state: 'approved' },
        { state: 'processing' },
        { state: 'paid', reason: '402912345678' },
      ],
    });
    const notes = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.kind).sort()).toEqual([
      'withdrawal_approved',
      'withdrawal_paid',
      'withdrawal_processing',
    ]);
    expect(await ctx.balanceOf(user.token)).toBe('750.00');
  });

  it('never changes a paid withdrawal, even when told it failed (gateways deliver out of order)', async () => {
    const { user, id } = await processing();
    expect((await ctx.getText(callbackUrl(success(id), SECRET))).status).toBe(200);
    const late = await ctx.getText(
      callbackUrl(
        { orderNo: String(id), status: 'failed', amount: '250.00', reason: 'Timeout', ts: nowSeconds(ctx) },
        SECRET,
      ),
    );
    expect(late).toMatchObject({ status: 200, text: 'success' });
    expect(await stateOf(ctx, id)).toBe('paid');
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
    expect(await ctx.balanceOf(user.token)).toBe('750.00');
    expect(ctx.logs.some((l) => l.includes('contradicts a final state') && l.includes(`"orderNo":${id}`))).toBe(true);
  });

  it('returns the hold on a failure and shows the reason; a later success changes nothing', async () => {
    const { user, id } = await processing();
    const failed = {
      orderNo: String(id),
      status: 'failed',
      amount: '250.00',
      reason: 'Account closed',
      ts: nowSeconds(ctx),
    };
    expect((await ctx.getText(callbackUrl(failed, SECRET))).text).toBe('success');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'failed',
      stateLabelKey: 'withdrawal_state_failed',
      reason: 'Account closed',
    });
    expect((await ctx.getText(callbackUrl(success(id), SECRET))).status).toBe(200);
    expect(await stateOf(ctx, id)).toBe('failed');
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'refund']);
  });

  it('refuses a callback for a withdrawal never sent for payment', async () => {
    const user = await payee(ctx, 1000);
    const pending = (await withdraw(ctx, user.token, { amount: 250 })).body.data.id;
    const res = await ctx.get(callbackUrl(success(pending), SECRET));
    expect([res.status, res.body.key]).toEqual([400, 'payout_order_not_dispatched']);
    expect(await review(ctx, pending, 'reject', 'No')).toMatchObject({ status: 200 });
    expect((await ctx.get(callbackUrl(success(pending), SECRET))).status).toBe(400);
    expect(await postingsOf(ctx, pending)).toEqual(['hold', 'refund']);
  });

  it('settles a callback that overtakes the dispatch job, through processing', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 250 })).body.data;
    await review(ctx, id, 'approve');
    expect((await ctx.getText(callbackUrl(success(id), SECRET))).text).toBe('success');
    expect((await ownWithdrawal(ctx, user.token, id))?.history.map((h) => h.state)).toEqual([
      'pending',
      'approved',
      'processing',
      'paid',
    ]);
    await ctx.worker.jobs.runDue();
    expect(await stateOf(ctx, id)).toBe('paid');
  });

  it('dispatches again a payout still processing after the timeout, and the gateway pays it once', async () => {
    const { id } = await processing();
    expect((await ctx.worker.payouts.reconcile()).processing).not.toContain(id);
    ctx.advance(601_000);
    expect((await ctx.worker.payouts.reconcile()).processing).toContain(id);
    await ctx.worker.jobs.runDue();
    const rows = await ctx.db
      .select()
      .from(sandboxPayouts)
      .where(eq(sandboxPayouts.orderNo, String(id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 250_00n, dispatchCount: 2 });
    expect((await ctx.worker.payouts.reconcile()).processing).not.toContain(id);
    expect(await stateOf(ctx, id)).toBe('processing');
  });

  it('dispatches an approved withdrawal whose dispatch job was lost', async () => {
    const user = await payee(ctx, 1000);
    // The account's own bank check settles first (a check is never shared between users): a withdrawal
    // still waiting for it is dispatched by the check's result, not by this reconciliation.
    await ctx.worker.jobs.runDue();
    const { id } = (await withdraw(ctx, user.token, { amount: 250 })).body.data;
    await review(ctx, id, 'approve');
    await ctx.db.delete(jobs).where(eq(jobs.dedupeKey, `payout:dispatch:${id}`));
    expect((await ctx.worker.payouts.reconcile()).approved).toEqual([id]);
    await ctx.worker.jobs.runDue();
    expect(await stateOf(ctx, id)).toBe('processing');
    const [row] = await ctx.db
      .select({ n: count() })
      .from(sandboxPayouts)
      .where(and(eq(sandboxPayouts.orderNo, String(id)), eq(sandboxPayouts.dispatchCount, 1)));
    expect(row?.n).toBe(1);
  });
});

describe.each([
  { rate: '0', state: 'paid', balance: '750.00', posting: 'paid' },
  { rate: '1', state: 'failed', balance: '1000.00', posting: 'refund' },
])('the sandbox gateway over HTTP (failure rate $rate)', ({ rate, state, balance, posting }) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ SANDBOX_PAYOUT_DELAY_MS: '30', SANDBOX_PAYOUT_FAILURE_RATE: rate });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it(`takes an approved withdrawal to ${state} through the signed callback`, async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 250 })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);

    const item = await waitFor(
      () => ownWithdrawal(ctx, user.token, id),
      (w) => w?.state === state,
    );
    expect(item?.state).toBe(state);
    if (state === 'paid') expect(item?.reference).toMatch(/^\d{12}$/);
    else expect(item?.reason).toMatch(/declined/);
    expect(await ctx.balanceOf(user.token)).toBe(balance);
    expect(await postingsOf(ctx, id)).toEqual(['hold', posting].sort());
    // The sandbox records its delivery once our answer is back, which may be just after the state changed.
    const payout = await waitFor(
      async () =>
        (
          await ctx.db
            .select()
            .from(sandboxPayouts)
            .where(eq(sandboxPayouts.orderNo, String(id)))
        )[0],
      (row) => row?.notifiedAt != null,
    );
    expect(payout?.notifiedAt).toBeInstanceOf(Date);
    expect(ctx.logs.some((l) => l.includes('payout callback refused'))).toBe(false);
    expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
  });
});

describe('an app that listens on no port', () => {
  it('sends the sandbox callback nowhere, not to PORT (where something else may listen)', async () => {
    // Whatever holds PORT while this app answers only `inject`: it must see no connection.
    const arrived: string[] = [];
    const other = createServer((socket) => {
      arrived.push(String(socket.remoteAddress));
      socket.destroy();
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const port = (other.address() as AddressInfo).port;
    const ctx = await createTestContext({ PORT: String(port), SANDBOX_PAYOUT_DELAY_MS: '1000' });
    try {
      const user = await payee(ctx, 1000);
      const { id } = (await withdraw(ctx, user.token, { amount: 250 })).body.data;
      expect((await review(ctx, id, 'approve')).status).toBe(200);
      await ctx.worker.jobs.runDue();
      expect(await stateOf(ctx, id)).toBe('processing');
      ctx.advance(5000);
      await ctx.worker.jobs.runDue();
      const [notify] = await ctx.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `masterpay-sandbox:notify:${id}`));
      expect(arrived).toEqual([]);
      // The sandbox's report ran, found no address and ended; its outcome waits for a dispatch that has one.
      expect(notify?.doneAt).toBeInstanceOf(Date);
      expect(notify?.lastError).toBeNull();
      expect(await stateOf(ctx, id)).toBe('processing');
    } finally {
      await ctx.close();
      await new Promise((done) => other.close(done));
    }
  });
});
