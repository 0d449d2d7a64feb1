import type { PayoutMismatchItem } from '@kamai/contract';
import { eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, payoutMismatches, postings, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, nowSeconds, payee, review, withdraw } from './payout-helpers';

const SECRET = 'mismatch-test-secret-0123456789';
const MISMATCHES = `${API}/admin/payout/mismatches`;
const RESOLVE = `${API}/admin/payout/mismatch/resolve`;

/**
 * Hardening issue, defect 4: a signed callback that contradicts a final state used to be acknowledged
 * and dropped with a log line (the user kept the money twice). It now opens a payout mismatch.
 */
describe('payout mismatches (masterpay callbacks)', () => {
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

  async function processing(rupees = 250) {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: rupees })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    return { user, id: id as number };
  }

  const callback = (id: number, status: 'success' | 'failed', extra: Record<string, string> = {}) =>
    ctx.getText(
      callbackUrl(
        {
          orderNo: String(id),
          status,
          amount: '250.00',
          ts: nowSeconds(ctx),
          ...(status === 'success' ? { reference: '402912345678' } : { reason: 'Account closed' }),
          ...extra,
        },
        SECRET,
      ),
    );

  async function list(query = '') {
    const res = await ctx.get(`${MISMATCHES}?limit=100${query}`, { token: await ctx.adminToken() });
    expect(res.status).toBe(200);
    return res.body.data.items as PayoutMismatchItem[];
  }

  const scrape = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;

  it('signed failed → refund; a later signed success opens a mismatch with both callbacks, counted on /metrics and listed', async () => {
    const { user, id } = await processing();
    expect((await callback(id, 'failed')).text).toBe('success');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');

    const late = await callback(id, 'success');
    expect(late).toMatchObject({ status: 200, text: 'success' });
    // Delivered again (gateways retry): still one mismatch.
    expect((await callback(id, 'success')).status).toBe(200);

    const rows = await ctx.db.select().from(payoutMismatches).where(eq(payoutMismatches.withdrawalId, id));
    expect(rows).toHaveLength(1);
    const items = (await list()).filter((m) => m.withdrawalId === id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      withdrawalId: id,
      userId: user.id,
      gateway: 'sandbox',
      state: 'failed',
      currentState: 'failed',
      callbackStatus: 'success',
      amount: '250.00',
      callbackAmount: '250.00',
      callbackReference: '402912345678',
      resolved: false,
      recoverable: true,
      settledBy: { status: 'failed', payload: { status: 'failed', reason: 'Account closed' } },
      callback: { status: 'success', payload: { status: 'success', reference: '402912345678' } },
    });
    expect(typeof items[0]?.createdAt).toBe('string');
    const text = await scrape();
    expect(text).toMatch(/kamai_payout_mismatches_open [1-9]/);
    expect(text).toMatch(/kamai_payout_mismatches_opened_total\{gateway="sandbox"\} [1-9]/);
    // The withdrawal itself is untouched: failed, refunded once.
    const [row] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    expect(row?.state).toBe('failed');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    expect((await list('&resolved=false')).some((m) => m.withdrawalId === id)).toBe(true);
    expect((await list('&resolved=true')).some((m) => m.withdrawalId === id)).toBe(false);
  });

  it('success then failed, and a success naming another reference or amount, open mismatches that only dismissal closes', async () => {
    const { id } = await processing();
    await callback(id, 'success');
    await callback(id, 'failed');
    await callback(id, 'success', { reference: '999999999999' });
    await callback(id, 'success', { amount: '2500.00' });
    const items = (await list()).filter((m) => m.withdrawalId === id);
    expect(items.map((m) => m.callbackStatus).sort()).toEqual(['failed', 'success', 'success']);
    expect(items.every((m) => m.state === 'paid' && !m.recoverable)).toBe(true);
    expect(items.some((m) => m.callbackAmount === '2500.00')).toBe(true);
    expect(items.some((m) => m.callbackReference === '999999999999')).toBe(true);

    const token = await ctx.adminToken();
    const target = items.find((m) => m.callbackStatus === 'failed') as PayoutMismatchItem;
    expect(await ctx.post(RESOLVE, { id: target.id, action: 'recover', reason: 'x' }, { token })).toMatchObject({
      status: 409,
      body: { key: 'payout_mismatch_not_recoverable' },
    });
    expect(await ctx.post(RESOLVE, { id: target.id, action: 'dismiss', reason: ' ' }, { token })).toMatchObject({
      status: 400,
    });
    const dismissed = await ctx.post(
      RESOLVE,
      { id: target.id, action: 'dismiss', reason: 'Bank statement shows the credit; the failure was a gateway glitch' },
      { token },
    );
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      key: 'payout_mismatch_resolved',
      data: { resolved: true, resolution: 'dismiss', resolvedBy: expect.any(Number) },
    });
    const audits = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `payout_mismatch:${target.id}`));
    expect(audits).toMatchObject([{ action: 'payout_mismatch.dismiss' }]);
    expect(await ctx.post(RESOLVE, { id: 999_999, action: 'dismiss', reason: 'x' }, { token })).toMatchObject({
      status: 404,
    });
  });

  it('refuses a recovery the wallet cannot cover, whole (nothing taken); recovers once it can', async () => {
    const { user, id } = await processing();
    await callback(id, 'failed');
    await callback(id, 'success');
    const [mismatch] = (await list()).filter((m) => m.withdrawalId === id);
    if (!mismatch) throw new Error('no mismatch');
    // The user moves most of the refunded money to a new withdrawal's hold.
    const spent = (await withdraw(ctx, user.token, { amount: 900 })).body.data.id as number;
    expect(await ctx.balanceOf(user.token)).toBe('100.00');
    const token = await ctx.adminToken();
    const short = await ctx.post(RESOLVE, { id: mismatch.id, action: 'recover', reason: 'Gateway paid it' }, { token });
    expect(short).toMatchObject({ status: 409, body: { key: 'payout_mismatch_recovery_short' } });
    expect(short.body.message).toContain('100.00');
    expect(await ctx.balanceOf(user.token)).toBe('100.00');
    // The reviewer rejects that withdrawal: the money is back, the recovery goes through.
    expect((await review(ctx, spent, 'reject', 'Recovering an overpayment')).status).toBe(200);
    const done = await ctx.post(RESOLVE, { id: mismatch.id, action: 'recover', reason: 'Gateway paid it' }, { token });
    expect(done.status).toBe(200);
    expect(await ctx.balanceOf(user.token)).toBe('750.00');
    const keys = await ctx.db
      .select({ key: postings.idempotencyKey, type: postings.type })
      .from(postings)
      .where(like(postings.idempotencyKey, `withdrawal:${id}:%`));
    expect(keys.map((k) => k.type).sort()).toEqual(['payout_recovery', 'withdrawal_hold', 'withdrawal_refund']);
  });

  it('20 parallel recoveries of one mismatch take the money once', async () => {
    const { user, id } = await processing();
    await callback(id, 'failed');
    await callback(id, 'success');
    const [mismatch] = (await list()).filter((m) => m.withdrawalId === id);
    if (!mismatch) throw new Error('no mismatch');
    const token = await ctx.adminToken();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.post(RESOLVE, { id: mismatch.id, action: 'recover', reason: 'parallel' }, { token }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    expect(await ctx.balanceOf(user.token)).toBe('750.00');
  });

  it('the list needs a staff session; resolving needs an admin', async () => {
    expect((await ctx.get(MISMATCHES)).status).toBe(401);
    const user = await ctx.newUser();
    expect((await ctx.get(MISMATCHES, { token: user.token })).status).toBe(403);
    expect((await ctx.post(RESOLVE, { id: 1, action: 'dismiss', reason: 'x' }, { token: user.token })).status).toBe(
      403,
    );
  });
});
