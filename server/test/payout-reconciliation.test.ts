import { businessDayOf, type PayoutMismatchItem, startOfBusinessDay } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, payoutReconciliations, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, review, withdraw } from './payout-helpers';
import { type FakePayout, type RazorpayxFake, type Sender, startRazorpayxFake } from './razorpayx-fake';
import { addAccountValidation } from './razorpayx-validation-fake';

/**
 * The daily reconciliation against RazorpayX's record, as operators drive it: the console's button
 * (`POST /admin/payout/reconciliation/run`), the job it queues, and the mismatches and counts it shows.
 */
const KEYS = {
  keyId: 'rzp_test_KamaiRecon001',
  keySecret: 'fake-key-secret-recon',
  accountNumber: '7878780080316316',
  webhookSecret: 'whsec-recon-0123456',
};
const WEBHOOK = `${API}/common/pay/notify/razorpayx`;

const env = (fake: RazorpayxFake, extra: Record<string, string> = {}) => ({
  PAYOUT_GATEWAY: 'razorpayx',
  RAZORPAYX_KEY_ID: KEYS.keyId,
  RAZORPAYX_KEY_SECRET: KEYS.keySecret,
  RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
  RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
  RAZORPAYX_BASE_URL: fake.url,
  RAZORPAYX_TIMEOUT_MS: '5000',
  SANDBOX_PAYOUT_DELAY_MS: '3600000',
  PAYOUT_GATEWAY_SECRET: 'sandbox-secret-0123456789',
  ...extra,
});

async function row(ctx: TestContext, id: number) {
  const [found] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!found) throw new Error(`no withdrawal ${id}`);
  return found;
}

/** One test context over one fake whose payouts are created by the context's clock. */
async function setUp(fakeOptions: { ratePerSecond?: number } = {}, extraEnv: Record<string, string> = {}) {
  let clock: (() => Date) | undefined;
  const fake = await startRazorpayxFake({
    ...KEYS,
    ...fakeOptions,
    clock: () => (clock ? clock() : new Date()).getTime(),
  });
  addAccountValidation(fake, { ...KEYS, instant: () => ({ accountStatus: 'active', registeredName: 'ASHA KUMARI' }) });
  const ctx = await createTestContext(env(fake, extraEnv));
  clock = ctx.now;
  const via: Sender = async (delivery) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: delivery.body,
      headers: delivery.headers,
    });
    return { status: res.statusCode, body: res.body };
  };
  return { fake, ctx, via };
}

describe('daily reconciliation against RazorpayX', () => {
  let fake: RazorpayxFake;
  let ctx: TestContext;
  let via: Sender;

  beforeAll(async () => {
    // RazorpayX's documented ceiling: 10 calls a second.
    ({ fake, ctx, via } = await setUp({ ratePerSecond: 10 }));
  });
  afterEach(async () => {
    expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  /** A withdrawal of `rupees` approved and created at the fake (processing), with its payout. */
  async function processing(rupees = 200) {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: rupees })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    // The fake keeps RazorpayX's 10 calls a second: on a fast engine the create can meet a 429, and
    // the dispatch job then runs again after its backoff (1 s, 2 s, ...), as it would in production.
    for (let wait = 1; wait <= 8 && (await row(ctx, id)).state === 'approved'; wait *= 2) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * wait + 100));
      await ctx.worker.jobs.runDue();
    }
    const stored = await row(ctx, id);
    expect(stored.state).toBe('processing');
    const payout = fake.payouts.get(stored.gatewayPayoutId ?? '');
    if (!payout) throw new Error('the fake has no payout');
    return { user, id: id as number, payout };
  }

  const deliver = (event: string, payout: FakePayout) => fake.deliver(event, payout, { via });

  /** Presses the console's button for today, runs the queued job, answers the console's status. */
  async function reconcile(day?: string) {
    const token = await ctx.adminToken();
    const queued = await ctx.post(`${API}/admin/payout/reconciliation/run`, day ? { day } : {}, { token });
    expect(queued.status).toBe(200);
    await ctx.worker.jobs.runDue();
    const shown = await ctx.get(`${API}/admin/payout/reconciliation`, { token });
    expect(shown.status).toBe(200);
    return shown.body.data;
  }

  async function mismatches(filter: (m: PayoutMismatchItem) => boolean) {
    const list = await ctx.get(`${API}/admin/payout/mismatches?limit=100`, { token: await ctx.adminToken() });
    expect(list.status).toBe(200);
    return (list.body.data.items as PayoutMismatchItem[]).filter(filter);
  }
  const ofWithdrawal = (id: number) => mismatches((m) => m.withdrawalId === id);

  it('a day that agrees: every payout matched, no mismatch, the run and its counts shown; fees and tax kept', async () => {
    const { id, payout } = await processing(150);
    fake.setFees(payout.id, 590, 90);
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '510000000001' }));
    const status = await reconcile();
    expect(status.available).toBe(true);
    expect(status.last).toMatchObject({ day: businessDayOf(ctx.now()), status: 'done', error: null });
    expect(status.last.startedBy).toBeTypeOf('number');
    expect(status.last.counts).toMatchObject({ pages: 1, matched: 1, ours: 1, others: 0, rateLimited: 0 });
    expect(await ofWithdrawal(id)).toEqual([]);
    expect(await row(ctx, id)).toMatchObject({ state: 'paid', gatewayFees: 590n, gatewayTax: 90n });
    const [audit] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'payout_reconciliation.run'));
    expect(audit).toMatchObject({ actorId: status.last.startedBy, after: { day: businessDayOf(ctx.now()) } });
  });

  it('a missed webhook: the record settles the withdrawal through the state machine (paid once)', async () => {
    const { id, user, payout } = await processing(120);
    fake.settle(payout.id, 'processed', { utr: '510000000002' });
    const status = await reconcile();
    expect(status.last.counts.settled).toBeGreaterThanOrEqual(1);
    expect(await row(ctx, id)).toMatchObject({ state: 'paid', reference: '510000000002', gatewayStatus: 'processed' });
    expect(await ctx.balanceOf(user.token)).toBe('880.00');
    expect(await ofWithdrawal(id)).toEqual([]);
  });

  it('a payout under this installation reference that Kamai does not know: a mismatch to dismiss, never to recover', async () => {
    const { referencePrefix } = (await ctx.get(`${API}/admin/payout/reconciliation`, { token: await ctx.adminToken() }))
      .body.data;
    const lost = fake.seed({
      reference_id: `${referencePrefix}-99999-lostrefs`,
      amount: 70_000,
      created_at: Math.floor(ctx.now().getTime() / 1000) - 60,
    });
    // Another installation's payout on the same account, and one made in the dashboard: not Kamai's.
    fake.seed({
      reference_id: 'zz9zz-1-abcdefgh',
      amount: 10_000,
      created_at: Math.floor(ctx.now().getTime() / 1000) - 30,
    });
    fake.seed({
      reference_id: 'Vendor bill 17',
      amount: 10_000,
      created_at: Math.floor(ctx.now().getTime() / 1000) - 20,
    });
    const status = await reconcile();
    expect(status.last.counts.others).toBeGreaterThanOrEqual(2);
    const [found] = await mismatches((m) => m.payoutId === lost.id);
    expect(found).toMatchObject({
      kind: 'unknown_payout',
      withdrawalId: null,
      userId: null,
      state: null,
      callbackStatus: 'processed',
      callbackAmount: '700.00',
      recoverable: false,
      details: { kamai: null, razorpayx: { reference: `${referencePrefix}-99999-lostrefs`, amount: '70000' } },
    });
    expect(await mismatches((m) => m.kind === 'unknown_payout' && m.payoutId !== lost.id)).toEqual([]);
    const token = await ctx.adminToken();
    const recover = await ctx.post(
      `${API}/admin/payout/mismatch/resolve`,
      { id: found?.id, action: 'recover', reason: 'no wallet to take it from' },
      { token },
    );
    expect(recover).toMatchObject({ status: 409, body: { key: 'payout_mismatch_not_recoverable' } });
    const dismissed = await ctx.post(
      `${API}/admin/payout/mismatch/resolve`,
      { id: found?.id, action: 'dismiss', reason: 'a payout from before the restore; booked by hand' },
      { token },
    );
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data).toMatchObject({ resolved: true, resolution: 'dismiss' });
    // Run again: the same payout is not reported twice.
    await reconcile();
    expect(await mismatches((m) => m.payoutId === lost.id)).toHaveLength(1);
  });

  it('a status that differs: Kamai paid, RazorpayX says failed: a status mismatch, the withdrawal unchanged', async () => {
    const { id, user, payout } = await processing(130);
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '510000000003' }));
    // The record now says failed (its webhook never came).
    fake.settle(payout.id, 'failed');
    await reconcile();
    expect(await ofWithdrawal(id)).toMatchObject([
      { kind: 'status', state: 'paid', currentState: 'paid', callbackStatus: 'failed', recoverable: false },
    ]);
    expect((await row(ctx, id)).state).toBe('paid');
    expect(await ctx.balanceOf(user.token)).toBe('870.00');
  });

  it('a status that differs the other way: Kamai refunded, RazorpayX says processed: recoverable', async () => {
    const { id, user, payout } = await processing(140);
    await deliver('payout.failed', fake.settle(payout.id, 'failed'));
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    fake.settle(payout.id, 'processed', { utr: '510000000004' });
    await reconcile();
    const [found] = await ofWithdrawal(id);
    expect(found).toMatchObject({ kind: 'status', state: 'failed', callbackStatus: 'processed', recoverable: true });
  });

  it('a reversed payout whose record still says processed is not recoverable (the bank returned the money)', async () => {
    const { id, user, payout } = await processing(160);
    const processed = fake.settle(payout.id, 'processed', { utr: '510000000005' });
    await deliver('payout.processed', processed);
    await deliver('payout.reversed', fake.settle(payout.id, 'reversed'));
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    // A stale record (or a reconciliation racing the reversal) shows processed.
    fake.payouts.set(payout.id, { ...processed });
    await reconcile();
    for (const m of await ofWithdrawal(id)) expect(m.recoverable).toBe(false);
    expect((await row(ctx, id)).state).toBe('reversed');
  });

  it('an amount that differs: an amount mismatch, nothing settled', async () => {
    const { id, payout } = await processing(170);
    const stored = fake.payouts.get(payout.id) as FakePayout;
    stored.amount += 100;
    fake.settle(payout.id, 'processed', { utr: '510000000006' });
    await reconcile();
    expect(await ofWithdrawal(id)).toMatchObject([{ kind: 'amount', callbackAmount: '171.00', state: 'processing' }]);
    expect((await row(ctx, id)).state).toBe('processing');
  });

  it('fees that change after RazorpayX first reported them: a fees mismatch', async () => {
    const { id, payout } = await processing(180);
    fake.setFees(payout.id, 590, 90);
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '510000000007' }));
    await reconcile();
    expect(await ofWithdrawal(id)).toEqual([]);
    fake.setFees(payout.id, 1180, 180);
    await reconcile();
    expect(await ofWithdrawal(id)).toMatchObject([
      { kind: 'fees', details: { kamai: { fees: '590', tax: '90' }, razorpayx: { fees: 1180, tax: 180 } } },
    ]);
  });

  it('a late UTR: stored from the record, and a mismatch says its webhook never came', async () => {
    const { id, user, payout } = await processing(190);
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: null }));
    expect((await row(ctx, id)).reference).toBeNull();
    fake.setUtr(payout.id, '510000000008');
    await reconcile();
    expect((await row(ctx, id)).reference).toBe('510000000008');
    expect(await ofWithdrawal(id)).toMatchObject([
      { kind: 'late_utr', callbackReference: '510000000008', reference: '510000000008', recoverable: false },
    ]);
    expect(await ctx.balanceOf(user.token)).toBe('810.00');
  });

  it('a withdrawal RazorpayX does not know: a missing-payout mismatch', async () => {
    const { id, payout } = await processing(210);
    fake.forget(payout.id);
    await reconcile();
    expect(await ofWithdrawal(id)).toMatchObject([
      { kind: 'missing_payout', callbackStatus: 'missing', state: 'processing', payoutId: payout.id },
    ]);
  });

  it('refuses a day in the future and answers every refusal in the envelope', async () => {
    const token = await ctx.adminToken();
    const tomorrow = businessDayOf(new Date(ctx.now().getTime() + 86_400_000));
    const res = await ctx.post(`${API}/admin/payout/reconciliation/run`, { day: tomorrow }, { token, lang: 'hi_IN' });
    expect(res).toMatchObject({ status: 400, body: { key: 'payout_reconciliation_future_day' } });
    expect(res.body.message).toBe('आज या उससे पहले का कोई दिन चुनें');
    const bad = await ctx.post(`${API}/admin/payout/reconciliation/run`, { day: '2026-13-99x' }, { token });
    expect(bad.status).toBe(400);
  });

  it('the daily job reconciles yesterday once', async () => {
    const yesterday = businessDayOf(new Date(ctx.now().getTime() - 86_400_000));
    await ctx.worker.payouts.reconciliation.daily();
    await ctx.worker.jobs.runDue();
    await ctx.worker.payouts.reconciliation.daily();
    await ctx.worker.jobs.runDue();
    const runs = await ctx.db.select().from(payoutReconciliations).where(eq(payoutReconciliations.day, yesterday));
    expect(runs.map((r) => [r.status, r.startedBy])).toEqual([['done', null]]);
  });
});

describe('reconciling a 10,000-payout day', () => {
  it('pages through all of them within RazorpayX rate (no 429) and still finds what differs', async () => {
    // RazorpayX's limit: 5-10 calls a second; the fake refuses the 11th within a second.
    const { fake, ctx } = await setUp({ ratePerSecond: 10 }, { RAZORPAYX_REQUESTS_PER_SECOND: '8' });
    try {
      const today = businessDayOf(ctx.now());
      const dayStart = Math.floor(startOfBusinessDay(today).getTime() / 1000);
      const { referencePrefix } = (
        await ctx.get(`${API}/admin/payout/reconciliation`, { token: await ctx.adminToken() })
      ).body.data;
      // The oldest payout of the day is ours and unknown: it is on the last page.
      const lost = fake.seed({
        reference_id: `${referencePrefix}-424242-lastpage`,
        amount: 5_000,
        created_at: dayStart,
      });
      for (let i = 1; i < 10_000; i++) {
        fake.seed({ reference_id: `other-${i}`, amount: 10_000, created_at: dayStart + 1 + (i % 3000) });
      }
      const before = fake.requests.length;
      const queued = await ctx.post(`${API}/admin/payout/reconciliation/run`, {}, { token: await ctx.adminToken() });
      expect(queued.status).toBe(200);
      await ctx.worker.jobs.runDue();
      const lists = fake.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
      expect(lists.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
      expect(fake.rateLimited).toBe(0);
      expect(lists).toHaveLength(101);
      expect(lists[0]?.query).toMatchObject({ account_number: KEYS.accountNumber, count: '100', skip: '0' });
      expect(lists.at(-1)?.query.skip).toBe('10000');
      const shown = await ctx.get(`${API}/admin/payout/reconciliation`, { token: await ctx.adminToken() });
      expect(shown.body.data.last).toMatchObject({
        status: 'done',
        counts: { fetched: 10_000, pages: 101, others: 9_999, unknown_payout: 1, rateLimited: 0 },
      });
      const list = await ctx.get(`${API}/admin/payout/mismatches?limit=10`, { token: await ctx.adminToken() });
      expect((list.body.data.items as PayoutMismatchItem[]).map((m) => [m.kind, m.payoutId])).toEqual([
        ['unknown_payout', lost.id],
      ]);
    } finally {
      await ctx.close();
      await fake.close();
    }
  }, 120_000);

  it('honours a 429 with a backoff and asks again for the same page', async () => {
    // A fake that allows 2 calls a second, and a client set to 10: RazorpayX answers 429.
    const { fake, ctx } = await setUp({ ratePerSecond: 2 }, { RAZORPAYX_REQUESTS_PER_SECOND: '10' });
    try {
      const dayStart = Math.floor(startOfBusinessDay(businessDayOf(ctx.now())).getTime() / 1000);
      for (let i = 0; i < 450; i++) fake.seed({ reference_id: `other-${i}`, amount: 10_000, created_at: dayStart + i });
      const before = fake.requests.length;
      await ctx.post(`${API}/admin/payout/reconciliation/run`, {}, { token: await ctx.adminToken() });
      await ctx.worker.jobs.runDue();
      const lists = fake.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
      expect(fake.rateLimited).toBeGreaterThan(0);
      expect(lists.filter((r) => r.status === 200).map((r) => r.query.skip)).toEqual(['0', '100', '200', '300', '400']);
      const shown = await ctx.get(`${API}/admin/payout/reconciliation`, { token: await ctx.adminToken() });
      expect(shown.body.data.last).toMatchObject({ status: 'done', counts: { fetched: 450, pages: 5 } });
      expect(shown.body.data.last.counts.rateLimited).toBe(fake.rateLimited);
    } finally {
      await ctx.close();
      await fake.close();
    }
  }, 120_000);
});
