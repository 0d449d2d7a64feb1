import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { PayoutMismatchItem } from '@kamai/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { auditLog, notifications, payoutWebhooksIgnored, postings, withdrawals } from '../src/db/schema';
import { createRazorpayxGateway, RazorpayxError, signWebhook } from '../src/features/payouts/payouts.razorpayx';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { loadConfig } from '../src/platform/config';
import { createWorker } from '../src/worker';
import { createTestContext, type TestContext } from './helpers';
import { API, fund, ownWithdrawal, payee, review, withdraw } from './payout-helpers';
import { type FakePayout, type RazorpayxFake, type Sender, startRazorpayxFake } from './razorpayx-fake';
import { addAccountValidation } from './razorpayx-validation-fake';

const KEYS = {
  keyId: 'rzp_test_KamaiFake1234',
  keySecret: 'fake-key-secret-0123',
  accountNumber: '7878780080316316',
  webhookSecret: 'whsec-current-0123456',
};
const PREVIOUS_SECRET = 'whsec-previous-0123456';
const WEBHOOK = `${API}/common/pay/notify/razorpayx`;
const RECONCILE_SECONDS = 600;

function env(fake: RazorpayxFake, gateway = 'razorpayx') {
  return {
    PAYOUT_GATEWAY: gateway,
    RAZORPAYX_KEY_ID: KEYS.keyId,
    RAZORPAYX_KEY_SECRET: KEYS.keySecret,
    RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
    RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
    RAZORPAYX_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_SECRET,
    RAZORPAYX_BASE_URL: fake.url,
    // Long enough for a loaded machine's honest answers; the fake's hung ones still time out.
    RAZORPAYX_TIMEOUT_MS: '2000',
    PAYOUT_RECONCILE_AFTER_SECONDS: String(RECONCILE_SECONDS),
    SANDBOX_PAYOUT_DELAY_MS: '3600000',
    PAYOUT_GATEWAY_SECRET: 'sandbox-secret-0123456789',
  };
}

async function row(ctx: TestContext, id: number) {
  const [found] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!found) throw new Error(`no withdrawal ${id}`);
  return found;
}

async function postingsOf(ctx: TestContext, id: number) {
  const rows = await ctx.db
    .select({ key: postings.idempotencyKey })
    .from(postings)
    .where(like(postings.idempotencyKey, `withdrawal:${id}:%`));
  return rows.map((r) => r.key.split(':')[2]).sort();
}

async function mismatchesOf(ctx: TestContext, withdrawalId: number) {
  const list = await ctx.get(`${API}/admin/payout/mismatches?limit=100`, { token: await ctx.adminToken() });
  expect(list.status).toBe(200);
  return (list.body.data.items as PayoutMismatchItem[]).filter((m) => m.withdrawalId === withdrawalId);
}

describe('RazorpayX payouts against the local fake', () => {
  let fake: RazorpayxFake;
  let ctx: TestContext;
  let via: Sender;

  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    // Payout accounts are checked when bound (account-validation.test.ts tests that); here the bank
    // answers at once with the typed name, so payouts are not held.
    addAccountValidation(fake, {
      ...KEYS,
      instant: (fund) => ({
        accountStatus: 'active',
        registeredName: String(
          (fund.bank_account as { name?: string } | undefined)?.name ?? 'ASHA KUMARI',
        ).toUpperCase(),
      }),
    });
    ctx = await createTestContext(env(fake));
    via = async (delivery) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: delivery.body,
        headers: delivery.headers,
      });
      return { status: res.statusCode, body: res.body };
    };
  });
  afterEach(async () => {
    expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  /** A withdrawal of `rupees` approved and created at the fake (processing), with its payout. */
  async function processing(rupees = 250, user?: Awaited<ReturnType<typeof payee>>) {
    const owner = user ?? (await payee(ctx, 1000));
    const { id } = (await withdraw(ctx, owner.token, { amount: rupees })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    const stored = await row(ctx, id);
    expect(stored).toMatchObject({ state: 'processing', gateway: 'razorpayx' });
    const payout = fake.payouts.get(stored.gatewayPayoutId ?? '');
    if (!payout) throw new Error('the fake has no payout');
    return { user: owner, id: id as number, payout };
  }

  const deliver = (event: string, payout: FakePayout, extra: { secret?: string; signature?: string } = {}) =>
    fake.deliver(event, payout, { ...extra, via });

  /** Runs the jobs that are due after moving the clock past any retry wait. */
  async function retryJobs() {
    ctx.advance(400_000);
    return ctx.worker.jobs.runDue();
  }

  it('creates the composite payout to a UPI id on approval (basic auth, idempotency key, paise) and pays on payout.processed with the UTR', async () => {
    const before = fake.requests.length;
    const { user, id, payout } = await processing(250);
    const [create] = fake.requests.slice(before).filter((r) => r.path === '/v1/payouts');
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/payouts',
      authorized: true,
      idempotencyKey: (await row(ctx, id)).payoutIdempotencyKey,
      status: 200,
      body: {
        account_number: KEYS.accountNumber,
        amount: 25000,
        currency: 'INR',
        mode: 'UPI',
        purpose: 'payout',
        reference_id: (await row(ctx, id)).payoutReference,
        fund_account: {
          account_type: 'vpa',
          vpa: { address: 'asha.k@okaxis' },
          contact: { name: 'Asha Kumari', type: 'customer', reference_id: `kamai-user-${user.id}` },
        },
      },
    });
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'processing' });

    const processed = fake.settle(payout.id, 'processed', { utr: '402912345678' });
    const answer = await deliver('payout.processed', processed);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 200, data: { applied: true } });
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'paid',
      stateLabelKey: 'withdrawal_state_paid',
      reference: '402912345678',
    });
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
  });

  it('pays a bank account by IMPS with name, IFSC and number', async () => {
    const user = await ctx.newUser();
    const bound = await ctx.post(
      `${API}/user/wdaccount/bind`,
      { accountType: 'bank', accountNo: '50100012345678', ifsc: 'HDFC0001234', accountName: 'Ravi Patel' },
      { token: user.token },
    );
    expect(bound.status).toBe(200);
    await fund(ctx, user.id, '500.00');
    const before = fake.requests.length;
    const { id } = await processing(300, user as never);
    expect(fake.requests.slice(before).find((r) => r.path === '/v1/payouts')?.body).toMatchObject({
      mode: 'IMPS',
      amount: 30000,
      fund_account: {
        account_type: 'bank_account',
        bank_account: { name: 'Ravi Patel', ifsc: 'HDFC0001234', account_number: '50100012345678' },
      },
    });
    expect((await row(ctx, id)).state).toBe('processing');
  });

  it('retries 500, 502, 429 and timeouts with the same key and body, and a lost answer is the same payout: one payout, paid once', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 120 })).body.data;
    fake.failNext('server_error');
    fake.failNext('gateway_error');
    fake.failNext('rate_limited');
    fake.failNext('timeout');
    fake.failNext('timeout_after_create');
    const createdBefore = fake.created;
    const before = fake.requests.length;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    for (let i = 0; i < 6 && (await row(ctx, id)).state === 'approved'; i++) await retryJobs();
    const stored = await row(ctx, id);
    expect(stored.state).toBe('processing');
    expect(fake.created - createdBefore).toBe(1);
    const creates = fake.requests.slice(before).filter((r) => r.path === '/v1/payouts');
    expect(creates).toHaveLength(6);
    expect(new Set(creates.map((r) => r.idempotencyKey))).toEqual(new Set([stored.payoutIdempotencyKey]));
    expect(new Set(creates.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(fake.byWithdrawal(id)).toHaveLength(1);
    expect(ctx.logs.some((l) => l.includes('job failed') && l.includes('answered 500'))).toBe(true);
  });

  it('fails the withdrawal with the reason and returns the hold when RazorpayX refuses the payout (400 BAD_REQUEST_ERROR)', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 200 })).body.data;
    fake.refuseNext('Invalid VPA. Please enter a valid Virtual Payment Address', 'fund_account.vpa.address');
    await review(ctx, id, 'approve');
    await ctx.worker.jobs.runDue();
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'failed',
      reason: 'Invalid VPA. Please enter a valid Virtual Payment Address',
    });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'refund']);
  });

  for (const event of ['failed', 'rejected'] as const) {
    it(`payout.${event}: failed with the reason, hold returned`, async () => {
      const { user, id, payout } = await processing(150);
      const answer = await deliver(`payout.${event}`, fake.settle(payout.id, event));
      expect(answer.status).toBe(200);
      const item = await ownWithdrawal(ctx, user.token, id);
      expect(item).toMatchObject({ state: 'failed', stateLabelKey: 'withdrawal_state_failed' });
      expect(item?.reason).toBeTruthy();
      expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    });
  }

  it('refuses webhooks whose signature is missing, wrong, made with another secret or over other bytes: 401, nothing changes; the previous secret is accepted during a rotation', async () => {
    const { user, id, payout } = await processing(100);
    const processed = fake.settle(payout.id, 'processed', { utr: '555500001111' });
    const good = fake.webhook('payout.processed', processed);
    const send = (body: string, headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: WEBHOOK, payload: body, headers });
    const { 'x-razorpay-signature': _signature, ...unsigned } = good.headers;
    for (const attempt of [
      await send(good.body, unsigned),
      await send(good.body, { ...good.headers, 'x-razorpay-signature': 'zz' }),
      await send(good.body, {
        ...good.headers,
        'x-razorpay-signature': fake.webhook('payout.processed', processed, { secret: 'not-the-secret' }).headers[
          'x-razorpay-signature'
        ] as string,
      }),
      await send(good.body.replace('"amount":10000', '"amount":10001'), good.headers),
      await send(`${good.body} `, good.headers),
      await send('not json at all', { ...unsigned, 'x-razorpay-signature': '0'.repeat(64) }),
    ]) {
      expect(attempt.statusCode).toBe(401);
      expect(attempt.json()).toMatchObject({ code: 401, key: 'payout_bad_signature' });
    }
    expect((await row(ctx, id)).state).toBe('processing');
    expect(ctx.logs.some((l) => l.includes('razorpayx webhook refused: bad signature'))).toBe(true);

    // Signed, but not JSON: acknowledged (a non-2xx would count as a failed delivery), logged, ignored.
    const garbage = fake.webhook('payout.processed', processed);
    const signedGarbage = await send('{"event":', {
      ...garbage.headers,
      'x-razorpay-signature': signWebhook('{"event":', KEYS.webhookSecret),
    });
    expect(signedGarbage.statusCode).toBe(200);
    expect(signedGarbage.json().data).toEqual({ applied: false });
    expect(ctx.logs.some((l) => l.includes('razorpayx webhook ignored') && l.includes('not JSON'))).toBe(true);
    expect((await row(ctx, id)).state).toBe('processing');

    const rotated = await deliver('payout.processed', processed, { secret: PREVIOUS_SECRET });
    expect(rotated.status).toBe(200);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: '555500001111' });
  });

  it('answers 2xx to a signed webhook for a payout Kamai did not make, and changes nothing', async () => {
    const { id } = await processing(100);
    const before = await row(ctx, id);
    const stranger = {
      ...structuredClone(fake.payouts.get(before.gatewayPayoutId ?? '') as FakePayout),
      id: 'pout_MadeInDashboard1',
      reference_id: 'dashboard payout 17',
    };
    for (const event of ['payout.processed', 'payout.failed', 'payout.reversed'] as const) {
      const answer = await deliver(event, { ...stranger, status: event.slice(7) });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data).toEqual({ applied: false });
    }
    // Our reference on another payout id than the one we keep: also acknowledged and ignored.
    const impostor = await deliver('payout.processed', {
      ...stranger,
      reference_id: before.payoutReference,
      status: 'processed',
    });
    expect(impostor.status).toBe(200);
    expect(await row(ctx, id)).toMatchObject({ state: 'processing', gatewayPayoutId: before.gatewayPayoutId });
    expect(ctx.logs.some((l) => l.includes('razorpayx webhook ignored') && l.includes('did not make'))).toBe(true);
    // Each is recorded with its reason, where operators can read it.
    const ignored = await ctx.db
      .select()
      .from(payoutWebhooksIgnored)
      .where(eq(payoutWebhooksIgnored.payoutId, 'pout_MadeInDashboard1'))
      .orderBy(payoutWebhooksIgnored.id);
    expect(ignored.map((r) => [r.event, r.reason, r.referenceId])).toEqual([
      ['payout.processed', 'a payout Kamai did not make', 'dashboard payout 17'],
      ['payout.failed', 'a payout Kamai did not make', 'dashboard payout 17'],
      ['payout.reversed', 'a payout Kamai did not make', 'dashboard payout 17'],
      ['payout.processed', 'another payout of this withdrawal', before.payoutReference],
    ]);
    expect(ignored[0]?.payload).toMatchObject({ event: 'payout.processed', entity: 'event' });
  });

  it('stores the UTR that arrives after processed, in payout.updated, once', async () => {
    const { user, id, payout } = await processing(100);
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: null }));
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: null });
    const updated = fake.setUtr(payout.id, '612345678901');
    const answers = await Promise.all([1, 2].map(() => deliver('payout.updated', updated)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: '612345678901' });
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
    expect(await mismatchesOf(ctx, id)).toEqual([]);
  });

  it('a queued payout cancelled (payout.updated, status cancelled) fails the withdrawal and returns the hold once', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 300 })).body.data;
    fake.setBalance(0);
    try {
      await review(ctx, id, 'approve');
      await ctx.worker.jobs.runDue();
    } finally {
      fake.setBalance(Number.POSITIVE_INFINITY);
    }
    const stored = await row(ctx, id);
    const payout = fake.payouts.get(stored.gatewayPayoutId ?? '') as FakePayout;
    expect(payout.status).toBe('queued');
    await deliver('payout.queued', structuredClone(payout));
    expect((await row(ctx, id)).state).toBe('processing');
    expect(() => fake.webhook('payout.cancelled', payout)).toThrow(/publishes no payout.cancelled/);
    const cancelled = fake.settle(payout.id, 'cancelled');
    const answers = await Promise.all([1, 2, 3].map(() => deliver('payout.updated', cancelled)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => JSON.parse(a.body).data.applied)).toHaveLength(1);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'failed' });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'refund']);
  });

  it('a 400 on a retry for a payout RazorpayX has processed does not refund: it is looked up by reference and paid', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 220 })).body.data;
    fake.failNext('timeout_after_create');
    await review(ctx, id, 'approve');
    await ctx.worker.jobs.runDue();
    expect((await row(ctx, id)).state).toBe('approved');
    const [made] = fake.byWithdrawal(id);
    if (!made) throw new Error('the fake made no payout');
    fake.settle(made.id, 'processed', { utr: '733300000001' });
    // The retry is refused (e.g. the account number changed between attempts), without the idempotency field.
    fake.refuseNext('The account number is invalid.', 'account_number');
    const before = fake.requests.length;
    await retryJobs();
    const lookups = fake.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.query).toMatchObject({
      account_number: KEYS.accountNumber,
      reference_id: (await row(ctx, id)).payoutReference,
    });
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: '733300000001' });
    expect(await ctx.balanceOf(user.token)).toBe('780.00');
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
  });

  it('a 400 on a retry with no payout found by reference is ambiguous: no refund, it stays processing', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 130 })).body.data;
    fake.failNext('timeout');
    await review(ctx, id, 'approve');
    await ctx.worker.jobs.runDue();
    fake.refuseNext('The account number is invalid.', 'account_number');
    await retryJobs();
    expect((await row(ctx, id)).state).toBe('approved');
    expect(await ctx.balanceOf(user.token)).toBe('870.00');
    expect(await postingsOf(ctx, id)).toEqual(['hold']);
    expect(ctx.logs.some((l) => l.includes('no payout found by reference'))).toBe(true);
    // The next retry is accepted: one payout, paid once.
    await retryJobs();
    expect((await row(ctx, id)).state).toBe('processing');
  });

  it('a processed report of a wrong amount opens a mismatch; the right one then settles the withdrawal', async () => {
    const { user, id, payout } = await processing(240);
    const right = fake.settle(payout.id, 'processed', { utr: '744400000001' });
    const wrong = await deliver('payout.processed', { ...right, amount: right.amount + 100 });
    expect(wrong.status).toBe(200);
    expect((await row(ctx, id)).state).toBe('processing');
    expect(await mismatchesOf(ctx, id)).toMatchObject([{ state: 'processing', callbackAmount: '241.00' }]);
    const answer = await deliver('payout.processed', right);
    expect(JSON.parse(answer.body).data.applied).toBe(true);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: '744400000001' });
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
  });

  it('a processed report in USD opens a mismatch and pays nothing; reconciliation still settles it', async () => {
    const { user, id, payout } = await processing(260);
    const inr = fake.settle(payout.id, 'processed', { utr: '755500000001' });
    expect((await deliver('payout.processed', { ...inr, currency: 'USD' })).status).toBe(200);
    expect((await row(ctx, id)).state).toBe('processing');
    expect(await mismatchesOf(ctx, id)).toHaveLength(1);
    ctx.advance((RECONCILE_SECONDS + 1) * 1000);
    await ctx.worker.payouts.reconcile();
    await ctx.worker.jobs.runDue();
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: '755500000001' });
  });

  it('a reversal of another amount opens a mismatch and returns nothing; the right one returns the money', async () => {
    const { user, id, payout } = await processing(270);
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '766600000001' }));
    expect(await ctx.balanceOf(user.token)).toBe('730.00');
    const reversed = fake.settle(payout.id, 'reversed');
    expect((await deliver('payout.reversed', { ...reversed, amount: 1 })).status).toBe(200);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid' });
    expect(await ctx.balanceOf(user.token)).toBe('730.00');
    expect(await mismatchesOf(ctx, id)).toMatchObject([
      { state: 'paid', callbackStatus: 'reversed', callbackAmount: '0.01' },
    ]);
    await deliver('payout.reversed', reversed);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'reversed' });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  it('applies a webhook delivered three times once (payout id + status)', async () => {
    const { user, id, payout } = await processing(100);
    const processed = fake.settle(payout.id, 'processed');
    const answers = await Promise.all([1, 2, 3].map(() => deliver('payout.processed', processed)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => JSON.parse(a.body).data.applied).sort()).toEqual([false, false, true]);
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid']);
    const sent = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.dedupeKey, `withdrawal:${id}:paid`)));
    expect(sent).toHaveLength(1);
  });

  it('acknowledges events it does not act on (initiated, queued, updated) without changing anything', async () => {
    const { id, payout } = await processing(100);
    for (const event of ['payout.initiated', 'payout.queued', 'payout.updated']) {
      const answer = await deliver(event, structuredClone(payout));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data.applied).toBe(false);
    }
    expect((await row(ctx, id)).state).toBe('processing');
  });

  it('payout.reversed after processed: reversed, the money back in the wallet by a posting, the user notified; a late processed does not un-reverse', async () => {
    const { user, id, payout } = await processing(400);
    const processed = fake.settle(payout.id, 'processed', { utr: '700000000001' });
    await deliver('payout.processed', processed);
    expect(await ctx.balanceOf(user.token)).toBe('600.00');
    const reversed = fake.settle(payout.id, 'reversed');
    expect((await deliver('payout.reversed', reversed)).status).toBe(200);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({
      state: 'reversed',
      stateLabelKey: 'withdrawal_state_reversed',
    });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid', 'reversal']);
    const [note] = await ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.dedupeKey, `withdrawal:${id}:reversed`));
    expect(note).toMatchObject({ userId: user.id, kind: 'withdrawal_reversed' });
    const notices = await ctx.get(`${API}/common/notice/list?limit=50`, { token: user.token, lang: 'hi_IN' });
    expect(JSON.stringify(notices.body)).toContain('बैंक ने आपकी ₹400.00 की निकासी लौटा दी');

    // The processed webhook again (a late redelivery): the same event, nothing changes.
    expect(JSON.parse((await deliver('payout.processed', processed)).body).data.applied).toBe(false);
    expect((await row(ctx, id)).state).toBe('reversed');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  /** Recover, as an admin would try it on every mismatch of the withdrawal: answers the statuses. */
  async function tryRecover(id: number) {
    const token = await ctx.adminToken();
    const statuses: number[] = [];
    for (const mismatch of await mismatchesOf(ctx, id)) {
      const res = await ctx.post(
        `${API}/admin/payout/mismatch/resolve`,
        { id: mismatch.id, action: 'recover', reason: 'the bank says it paid' },
        { token },
      );
      statuses.push(res.status);
    }
    return statuses;
  }

  it('out of order: payout.reversed then payout.processed: returned, the late processed changes nothing, nothing to recover', async () => {
    const { user, id, payout } = await processing(250);
    // RazorpayX's life cycle: processed, then reversed (https://razorpay.com/docs/x/payouts/states-life-cycle).
    const processed = fake.settle(payout.id, 'processed', { utr: '800000000002' });
    const reversed = fake.settle(payout.id, 'reversed');
    // Delivered in the other order (webhooks are not ordered).
    await deliver('payout.reversed', reversed);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'failed' });
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect((await deliver('payout.processed', processed)).status).toBe(200);
    expect((await row(ctx, id)).state).toBe('failed');
    await tryRecover(id);
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await mismatchesOf(ctx, id)).toEqual([]);
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'refund']);
  });

  it('processed, reversed, then a late processed with the UTR (payout.updated): stays reversed, no mismatch, nothing recovered', async () => {
    const { user, id, payout } = await processing(350);
    const processed = fake.settle(payout.id, 'processed', { utr: null });
    await deliver('payout.processed', processed);
    const reversed = fake.settle(payout.id, 'reversed');
    await deliver('payout.reversed', reversed);
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    // The UTR's update, sent before the reversal, arrives after it.
    await deliver('payout.updated', { ...processed, status: 'processed', utr: '800000000003' });
    await deliver('payout.processed', { ...processed, utr: '800000000003' });
    expect((await row(ctx, id)).state).toBe('reversed');
    await tryRecover(id);
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect(await mismatchesOf(ctx, id)).toEqual([]);
    expect(await postingsOf(ctx, id)).toEqual(['hold', 'paid', 'reversal']);
  });

  it('a failed or cancelled payout is final: a processed report for it opens a mismatch an operator can recover', async () => {
    const { user, id, payout } = await processing(210);
    await deliver('payout.failed', fake.settle(payout.id, 'failed'));
    await deliver('payout.processed', {
      ...fake.payouts.get(payout.id),
      status: 'processed',
      utr: '800000000004',
    } as FakePayout);
    expect((await row(ctx, id)).state).toBe('failed');
    expect(await mismatchesOf(ctx, id)).toMatchObject([
      { state: 'failed', callbackStatus: 'processed', recoverable: true },
    ]);
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
  });

  it('a failed payout later reported processed opens a mismatch; recovering takes the amount back from the wallet, audited, once', async () => {
    const { user, id, payout } = await processing(300);
    await deliver('payout.failed', fake.settle(payout.id, 'failed'));
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '900000000003' }));
    const [mismatch] = await mismatchesOf(ctx, id);
    if (!mismatch) throw new Error('no mismatch');
    const token = await ctx.adminToken();
    const resolved = await ctx.post(
      `${API}/admin/payout/mismatch/resolve`,
      { id: mismatch.id, action: 'recover', reason: 'RazorpayX shows UTR 900000000003 credited' },
      { token },
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ resolved: true, resolution: 'recover', recoverable: false });
    expect(await ctx.balanceOf(user.token)).toBe('700.00');
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `payout_mismatch:${mismatch.id}`));
    expect(audit).toMatchObject({
      action: 'payout_mismatch.recover',
      after: { resolution: 'recover', amount: '300.00' },
    });
    expect(audit?.actorId).toBeTypeOf('number');
    const again = await ctx.post(
      `${API}/admin/payout/mismatch/resolve`,
      { id: mismatch.id, action: 'recover', reason: 'twice' },
      { token },
    );
    expect(again).toMatchObject({ status: 409, body: { key: 'payout_mismatch_resolved_already' } });
    expect(await ctx.balanceOf(user.token)).toBe('700.00');
  });

  it('reconciliation fetches a payout still processing by id and applies its state', async () => {
    const { user, id, payout } = await processing(180);
    fake.settle(payout.id, 'processed', { utr: '610000000004' });
    ctx.advance((RECONCILE_SECONDS + 1) * 1000);
    const before = fake.requests.length;
    const { processing: due } = await ctx.worker.payouts.reconcile();
    expect(due).toContain(id);
    await ctx.worker.jobs.runDue();
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toContain(`GET /v1/payouts/${payout.id}`);
    expect(await ownWithdrawal(ctx, user.token, id)).toMatchObject({ state: 'paid', reference: '610000000004' });
    // Its webhook arriving afterwards is the same (payout id, status): applied once.
    expect(
      JSON.parse((await deliver('payout.processed', fake.payouts.get(payout.id) as FakePayout)).body).data.applied,
    ).toBe(false);
  });

  it('reconciliation re-creates, with the same idempotency key, a payout RazorpayX does not know', async () => {
    const { id, payout } = await processing(160);
    const sentKey = (await row(ctx, id)).payoutIdempotencyKey;
    fake.forget(payout.id);
    ctx.advance((RECONCILE_SECONDS + 1) * 1000);
    const before = fake.requests.length;
    await ctx.worker.payouts.reconcile();
    await ctx.worker.jobs.runDue();
    // Other tests' payouts still processing are reconciled too; these are this withdrawal's calls.
    const calls = fake.requests.slice(before).filter((r) => r.path.endsWith(payout.id) || r.idempotencyKey === sentKey);
    expect(calls.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /v1/payouts/${payout.id} 400`,
      'POST /v1/payouts 200',
    ]);
    expect(calls[1]?.idempotencyKey).toBe(sentKey);
    const stored = await row(ctx, id);
    expect(stored.state).toBe('processing');
    expect(stored.gatewayPayoutId).not.toBe(payout.id);
    expect(fake.byWithdrawal(id)).toHaveLength(1);
  });

  it('counts payouts by state and open mismatches on /metrics', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/kamai_withdrawals\{state="paid",gateway="razorpayx"\} [1-9]/);
    expect(res.body).toMatch(/kamai_payout_mismatches_open [1-9]/);
    expect(res.body).toMatch(/kamai_payout_mismatches_opened_total\{gateway="razorpayx"\} [1-9]/);
  });

  it('keeps paying a withdrawal through RazorpayX after PAYOUT_GATEWAY is switched back to sandbox', async () => {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: 110 })).body.data;
    await review(ctx, id, 'approve');
    // A second instance on the same database, now configured with the sandbox as the default.
    const config = loadConfig({ LOG_LEVEL: 'silent', ...env(fake, 'sandbox') });
    const other = await buildApp({ config, database: ctx.database, logger: false, now: ctx.now });
    const otherWorker = await createWorker({
      db: ctx.db,
      config,
      now: ctx.now,
      log: other.app.log,
      notifyUrl: () => 'http://127.0.0.1:9/unused',
    });
    try {
      const createdBefore = fake.created;
      await otherWorker.jobs.runDue();
      expect(fake.created - createdBefore).toBe(1);
      expect(await row(ctx, id)).toMatchObject({ state: 'processing', gateway: 'razorpayx' });
      // Newly approved withdrawals go to the sandbox on that instance.
      const second = (await withdraw(ctx, user.token, { amount: 100 })).body.data.id as number;
      const approved = await other.app.inject({
        method: 'POST',
        url: `${API}/admin/withdraw/review`,
        payload: { id: second, action: 'approve', reason: '' },
        headers: { authorization: `Bearer ${await ctx.adminToken()}` },
      });
      expect(approved.statusCode).toBe(200);
      expect((await row(ctx, second)).gateway).toBe('sandbox');
    } finally {
      await other.app.close();
    }
  });
});

describe('the RazorpayX client against the fake, directly', () => {
  let fake: RazorpayxFake;
  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
  });
  afterAll(async () => {
    await fake?.close();
  });
  const order = (orderNo: string, amount = 10_000n) => ({
    orderNo,
    reference: `test-${orderNo}-abcdefgh`,
    idempotencyKey: `test-${orderNo}-abcdefgh`,
    userId: 7,
    amount,
    account: { accountType: 'upi' as const, accountNo: 'ravi@okicici', ifsc: '', accountName: 'Ravi Patel' },
    notifyUrl: 'http://unused',
    payoutId: null,
  });
  const client = (secret = KEYS.keySecret) =>
    createRazorpayxGateway({
      baseUrl: fake.url,
      keyId: KEYS.keyId,
      keySecret: secret,
      accountNumber: KEYS.accountNumber,
      timeoutMs: 2_000,
    }).gateway;
  const signal = () => AbortSignal.timeout(5_000);

  it('same key and body: the same payout; same key and another body: their 400, and nothing is settled', async () => {
    const first = await client().dispatch(order('9001'), signal());
    const second = await client().dispatch(order('9001'), signal());
    expect(first?.payoutId).toMatch(/^pout_/);
    expect(second?.payoutId).toBe(first?.payoutId);
    expect(fake.byReference('test-9001-abcdefgh')).toHaveLength(1);
    const other = client().dispatch(order('9001', 20_000n), signal());
    await expect(other).rejects.toBeInstanceOf(RazorpayxError);
    await expect(other).rejects.toMatchObject({ status: 400, error: { field: 'X-Payout-Idempotency' } });
  });

  it('refused credentials (401) leave the payout unknown: the dispatch throws', async () => {
    await expect(client('wrong-secret-000').dispatch(order('9002'), signal())).rejects.toMatchObject({ status: 401 });
    expect(fake.requests.at(-1)).toMatchObject({ authorized: false, status: 401 });
    expect(fake.byReference('test-9002-abcdefgh')).toHaveLength(0);
  });

  it('a timeout throws (retried later with the same key)', async () => {
    fake.failNext('timeout');
    await expect(client().dispatch(order('9003'), signal())).rejects.toMatchObject({ status: null });
  });

  it('a timeout still throws when garbage collections run while RazorpayX does not answer', async () => {
    // With AbortSignal.any([signal, AbortSignal.timeout(ms)]) a collection dropped the deadline and the
    // call hung for good (a CI run's payout job); the call's own timer must hold it.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collecting = setInterval(gc, 10);
    try {
      fake.failNext('timeout');
      const quick = createRazorpayxGateway({
        baseUrl: fake.url,
        keyId: KEYS.keyId,
        keySecret: KEYS.keySecret,
        accountNumber: KEYS.accountNumber,
        timeoutMs: 300,
      }).gateway;
      const outcome = quick.dispatch(order('9004'), AbortSignal.timeout(60_000)).then(
        () => 'answered',
        (error: RazorpayxError) => `threw ${error.status}`,
      );
      const hung = new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000));
      expect(await Promise.race([outcome, hung])).toBe('threw null');
    } finally {
      clearInterval(collecting);
    }
  });
});
