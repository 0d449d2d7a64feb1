import type { LedgerCheck } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutCallbacks, payoutMismatches, postings, settings, users, withdrawals } from '../src/db/schema';
import { post } from '../src/features/wallet/wallet.ledger';
import { getSetting } from '../src/platform/settings.queries';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, nowSeconds, payee, review, withdraw } from './payout-helpers';

const SECRET = 'ledger-rules-secret-0123456789';
const CHECK = `${API}/admin/ledger/check`;
const RESOLVE = `${API}/admin/payout/mismatch/resolve`;
const RULES = [
  'credit_after_deletion',
  'recovery_without_paid_and_returned',
  'withdrawal_postings_state',
  'unclaimed_for_deleted_account',
  'rebate_to_staff',
  'rebate_without_source',
];
/** ₹10 taken from every withdrawal when paid: the rules must see exact amounts, fee included. */
const FEE_PAISE = 1000;

/**
 * The business rules of money the ledger check runs beside "every posting balances"
 * (docs/decisions/ledger-rules.md): a clean, busy ledger reports none broken; each rule names a bad
 * posting forged straight into the database, over `admin/ledger/check` and `/metrics`.
 */
describe('ledger business rules', () => {
  let ctx: TestContext;
  let seq = 0;

  beforeAll(async () => {
    ctx = await createTestContext({
      SANDBOX_PAYOUT_DELAY_MS: '3600000',
      PAYOUT_GATEWAY_SECRET: SECRET,
    });
    const limits = await getSetting(ctx.db, 'withdrawal');
    await ctx.db
      .insert(settings)
      .values({ key: 'withdrawal', value: { ...limits, feePaise: FEE_PAISE } })
      .onConflictDoUpdate({ target: settings.key, set: { value: { ...limits, feePaise: FEE_PAISE } } });
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function check(): Promise<LedgerCheck> {
    const res = await ctx.get(CHECK, { token: await ctx.adminToken() });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  /** A scrape past the check's cache (METRICS_LEDGER_CHECK_SECONDS, 60 by default), so it checks again. */
  async function metrics() {
    ctx.advance(61_000);
    return (await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
  }
  const naming = (c: LedgerCheck, postingId: number) =>
    c.violations.filter((v) => v.postingIds.includes(String(postingId)));

  /** A withdrawal of `rupees` handed to the gateway (processing). */
  async function processing(rupees = 250) {
    const user = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, user.token, { amount: rupees })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    return { user, id: id as number };
  }
  /** masterpay's signed report, of the payout amount (amount − fee). */
  const callback = (id: number, status: 'success' | 'failed', payout = '240.00', reference = '402912345678') =>
    ctx.getText(
      callbackUrl(
        {
          orderNo: String(id),
          status,
          amount: payout,
          ts: nowSeconds(ctx),
          ...(status === 'success' ? { reference } : { reason: 'Account closed' }),
        },
        SECRET,
      ),
    );
  async function recovered() {
    const { user, id } = await processing();
    await callback(id, 'failed');
    await callback(id, 'success');
    const [mismatch] = await ctx.db.select().from(payoutMismatches).where(eq(payoutMismatches.withdrawalId, id));
    if (!mismatch) throw new Error('no mismatch');
    const done = await ctx.post(
      RESOLVE,
      { id: mismatch.id, action: 'recover', reason: 'The bank statement shows the credit' },
      { token: await ctx.adminToken() },
    );
    expect(done.status).toBe(200);
    const [posting] = await ctx.db
      .select()
      .from(postings)
      .where(eq(postings.idempotencyKey, `withdrawal:${id}:recovery`));
    if (!posting) throw new Error('no recovery posting');
    return { user, id, mismatch, postingId: posting.id };
  }
  const forge = (input: Parameters<typeof post>[1]) => ctx.db.transaction((tx) => post(tx, input));

  it('a clean, busy ledger (every state, fees, a recovery, a deletion) breaks no rule', async () => {
    const token = await ctx.adminToken();
    const user = await payee(ctx, 2000);
    // One stays pending.
    expect((await withdraw(ctx, user.token, { amount: 150 })).status).toBe(200);
    const rejected = (await withdraw(ctx, user.token, { amount: 120 })).body.data.id as number;
    expect((await review(ctx, rejected, 'reject', 'wrong UPI')).status).toBe(200);
    const cancelled = (await withdraw(ctx, user.token, { amount: 110 })).body.data.id as number;
    expect((await ctx.post(`${API}/user/withdraw/cancel`, { id: cancelled }, { token: user.token })).status).toBe(200);
    const paid = await processing();
    expect((await callback(paid.id, 'success')).text).toBe('success');
    const failed = await processing();
    expect((await callback(failed.id, 'failed')).text).toBe('success');
    const approved = await payee(ctx, 500);
    const waiting = (await withdraw(ctx, approved.token, { amount: 200 })).body.data.id as number;
    expect((await review(ctx, waiting, 'approve')).status).toBe(200);
    await recovered();
    const leaving = await payee(ctx, 300);
    expect(
      (await ctx.post(`${API}/user/account/delete`, { password: leaving.password }, { token: leaving.token })).status,
    ).toBe(200);
    await ctx.newUser({ inviteCode: user.inviteCode });

    const clean = await check();
    expect(clean).toMatchObject({ ok: true, problems: [], violations: [] });
    expect(clean.rules).toEqual(RULES.map((rule) => ({ rule, violations: 0 })));
    const text = await metrics();
    for (const rule of RULES) expect(text).toContain(`kamai_ledger_rule_violations{rule="${rule}"} 0`);
    expect(text).toMatch(/kamai_ledger_ok 1/);
    const dashboard = (await ctx.get(`${API}/admin/dashboard`, { token })).body.data;
    expect(dashboard.ledger).toEqual({ ok: true, problemCount: 0, violationCount: 0 });
  });

  it('credit_after_deletion: money put on a deleted account after its deletion', async () => {
    const user = await payee(ctx, 300);
    const deleted = await ctx.post(`${API}/user/account/delete`, { password: user.password }, { token: user.token });
    expect(deleted.status).toBe(200);
    const forged = await forge({
      type: 'manual_credit',
      idempotencyKey: `test:after-deletion:${++seq}`,
      ref: { remark: 'compensation' },
      entries: [
        { account: { kind: 'platform_revenue' }, amount: -5_000n },
        { account: { userId: user.id, kind: 'wallet' }, amount: 5_000n },
      ],
    });
    const [row] = await ctx.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, user.id));
    const deletedAt = row?.deletedAt;
    if (!deletedAt) throw new Error('not deleted');
    // A second after the deletion, whichever clock the database keeps.
    await ctx.db
      .update(postings)
      .set({ createdAt: new Date(deletedAt.getTime() + 1000) })
      .where(eq(postings.id, forged.postingId));

    const found = await check();
    expect(found.ok).toBe(false);
    const [violation] = naming(found, forged.postingId);
    expect(violation).toMatchObject({ rule: 'credit_after_deletion', postingIds: [String(forged.postingId)] });
    expect(violation?.detail).toContain(`user ${user.id}`);
    expect(violation?.postings).toEqual([
      expect.objectContaining({
        id: String(forged.postingId),
        type: 'manual_credit',
        entries: [
          expect.objectContaining({ userId: null, kind: 'platform_revenue', amount: '-50.00' }),
          expect.objectContaining({ userId: user.id, kind: 'wallet', amount: '50.00' }),
        ],
      }),
    ]);
    expect(found.rules).toContainEqual({ rule: 'credit_after_deletion', violations: 1 });
    expect(await metrics()).toContain('kamai_ledger_rule_violations{rule="credit_after_deletion"} 1');
    const dashboard = (await ctx.get(`${API}/admin/dashboard`, { token: await ctx.adminToken() })).body.data;
    expect(dashboard.ledger).toMatchObject({ ok: false, problemCount: 0, violationCount: 1 });

    // The same credit a second before the deletion broke nothing.
    await ctx.db
      .update(postings)
      .set({ createdAt: new Date(deletedAt.getTime() - 1000) })
      .where(eq(postings.id, forged.postingId));
    expect(naming(await check(), forged.postingId)).toEqual([]);
  });

  it("credit_after_deletion: even the bank's return of the user's own payout may not go into a deleted wallet", async () => {
    const { user, id } = await processing();
    expect((await callback(id, 'success')).text).toBe('success');
    expect(
      (await ctx.post(`${API}/user/account/delete`, { password: user.password }, { token: user.token })).status,
    ).toBe(200);
    // The bank returns the payout afterwards (as RazorpayX's payout.reversed does), forged into the
    // frozen wallet instead of platform_unclaimed (docs/decisions/unclaimed-money.md).
    await ctx.db.update(withdrawals).set({ state: 'reversed' }).where(eq(withdrawals.id, id));
    const returned = await forge({
      type: 'withdrawal_reversal',
      idempotencyKey: `withdrawal:${id}:reversal`,
      ref: { withdrawalId: id },
      entries: [
        { account: { kind: 'platform_payouts' }, amount: -24_000n },
        { account: { kind: 'platform_revenue' }, amount: -1_000n },
        { account: { userId: user.id, kind: 'wallet' }, amount: 25_000n },
      ],
    });
    const [row] = await ctx.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, user.id));
    if (!row?.deletedAt) throw new Error('not deleted');
    await ctx.db
      .update(postings)
      .set({ createdAt: new Date(row.deletedAt.getTime() + 1000) })
      .where(eq(postings.id, returned.postingId));
    expect(naming(await check(), returned.postingId).map((v) => v.rule)).toEqual(['credit_after_deletion']);
    // Undone, so the file's other checks start clean.
    await ctx.db
      .update(postings)
      .set({ createdAt: new Date(row.deletedAt.getTime() - 1000) })
      .where(eq(postings.id, returned.postingId));
  });

  it('recovery_without_paid_and_returned: a recovery of a withdrawal the gateway never said it paid', async () => {
    const { user, id } = await processing();
    expect((await callback(id, 'success')).text).toBe('success');
    // Paid, no mismatch: "recovering" it takes the user's money a second time.
    const forged = await forge({
      type: 'payout_recovery',
      idempotencyKey: `withdrawal:${id}:recovery`,
      ref: { withdrawalId: id },
      entries: [
        { account: { userId: user.id, kind: 'wallet' }, amount: -25_000n },
        { account: { kind: 'platform_payouts' }, amount: 24_000n },
        { account: { kind: 'platform_revenue' }, amount: 1_000n },
      ],
    });
    const found = await check();
    const [violation] = naming(found, forged.postingId);
    expect(violation?.rule).toBe('recovery_without_paid_and_returned');
    expect(violation?.detail).toContain(`withdrawal ${id} is paid`);
    expect(violation?.detail).toContain('no mismatch resolved "recover"');
    expect(violation?.postings[0]?.entries).toHaveLength(3);
    expect(await metrics()).toMatch(/kamai_ledger_rule_violations\{rule="recovery_without_paid_and_returned"\} [1-9]/);
  });

  it('recovery_without_paid_and_returned: a recovery after the gateway reported the payout returned', async () => {
    const { id, postingId } = await recovered();
    expect(naming(await check(), postingId)).toEqual([]);
    // The bank returned the payout after the claim the recovery rests on: the money is not the user's twice.
    await ctx.db.insert(payoutCallbacks).values({
      withdrawalId: id,
      gateway: 'sandbox',
      eventKey: `test:reversed:${id}`,
      status: 'reversed',
      payload: { status: 'reversed' },
    });
    const [violation] = naming(await check(), postingId);
    expect(violation).toMatchObject({ rule: 'recovery_without_paid_and_returned', postingIds: [String(postingId)] });
  });

  it('recovery_without_paid_and_returned: a recovery of another amount than was paid', async () => {
    const { user, id } = await processing();
    await callback(id, 'failed');
    await callback(id, 'success');
    const [mismatch] = await ctx.db.select().from(payoutMismatches).where(eq(payoutMismatches.withdrawalId, id));
    await ctx.db
      .update(payoutMismatches)
      .set({ resolution: 'recover', resolutionReason: 'x', resolvedAt: new Date() })
      .where(eq(payoutMismatches.id, mismatch?.id as number));
    // The fee kept by the platform is taken from the wallet twice.
    const forged = await forge({
      type: 'payout_recovery',
      idempotencyKey: `withdrawal:${id}:recovery`,
      ref: { withdrawalId: id },
      entries: [
        { account: { userId: user.id, kind: 'wallet' }, amount: -26_000n },
        { account: { kind: 'platform_payouts' }, amount: 24_000n },
        { account: { kind: 'platform_revenue' }, amount: 2_000n },
      ],
    });
    const [violation] = naming(await check(), forged.postingId);
    expect(violation?.rule).toBe('recovery_without_paid_and_returned');
    expect(violation?.detail).toContain('expects wallet -25000, payouts 24000, revenue 1000');
  });

  it('withdrawal_postings_state: a refund of a paid withdrawal', async () => {
    const { user, id } = await processing();
    expect((await callback(id, 'success')).text).toBe('success');
    const forged = await forge({
      type: 'withdrawal_refund',
      idempotencyKey: `test:refund:${++seq}`,
      ref: { withdrawalId: id },
      entries: [
        { account: { kind: 'platform_payouts' }, amount: -25_000n },
        { account: { userId: user.id, kind: 'wallet' }, amount: 25_000n },
      ],
    });
    const [violation] = naming(await check(), forged.postingId);
    expect(violation?.rule).toBe('withdrawal_postings_state');
    expect(violation?.detail).toContain(`withdrawal ${id} is paid (amount 25000, fee 1000 paise)`);
    expect(violation?.detail).toContain('withdrawal_refund posted 1 times, expected 0');
    // Every posting of the withdrawal is shown: hold, paid and the forged refund.
    expect(violation?.postings.map((p) => p.type).sort()).toEqual([
      'withdrawal_hold',
      'withdrawal_paid',
      'withdrawal_refund',
    ]);
  });

  it('withdrawal_postings_state: paid without its fee, and a state changed with no posting', async () => {
    const first = await processing();
    // Marked paid by hand, the paid posting moving the whole amount to payouts (the fee not taken).
    await ctx.db.update(withdrawals).set({ state: 'paid' }).where(eq(withdrawals.id, first.id));
    const forged = await forge({
      type: 'withdrawal_paid',
      idempotencyKey: `withdrawal:${first.id}:paid`,
      ref: { withdrawalId: first.id },
      entries: [
        { account: { userId: first.user.id, kind: 'hold' }, amount: -25_000n },
        { account: { kind: 'platform_payouts' }, amount: 25_000n },
      ],
    });
    const [violation] = naming(await check(), forged.postingId);
    expect(violation?.rule).toBe('withdrawal_postings_state');
    expect(violation?.detail).toContain('withdrawal_paid moves wallet 0, hold -25000, payouts 25000, revenue 0');
    expect(violation?.detail).toContain('expected wallet 0, hold -25000, payouts 24000, revenue 1000');

    // Rejected by hand: the hold never went back (the invariant sees a hold, the rule names the withdrawal).
    const second = await processing();
    await ctx.db.update(withdrawals).set({ state: 'rejected' }).where(eq(withdrawals.id, second.id));
    const found = await check();
    const named = found.violations.find((v) => v.detail.startsWith(`withdrawal ${second.id} is rejected`));
    expect(named?.detail).toContain('withdrawal_refund posted 0 times, expected 1');
    expect(named?.postings.map((p) => p.type)).toEqual(['withdrawal_hold']);
    // Put back, so the invariants hold for what follows.
    await ctx.db.update(withdrawals).set({ state: 'processing' }).where(eq(withdrawals.id, second.id));
  });

  it('withdrawal_postings_state: a withdrawal posting that names no withdrawal', async () => {
    const user = await payee(ctx, 500);
    const forged = await forge({
      type: 'withdrawal_hold',
      idempotencyKey: `test:orphan-hold:${++seq}`,
      entries: [
        { account: { userId: user.id, kind: 'wallet' }, amount: -100n },
        { account: { userId: user.id, kind: 'hold' }, amount: 100n },
      ],
    });
    const [violation] = naming(await check(), forged.postingId);
    expect(violation).toMatchObject({
      rule: 'withdrawal_postings_state',
      detail: 'withdrawal_hold names no withdrawal (ref none)',
    });
  });
});
