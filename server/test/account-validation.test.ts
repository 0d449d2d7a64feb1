import {
  type AdminWithdrawalItem,
  type PayoutAccountItem,
  RISK_REASON_KEYS,
  RISK_SCORE_MAX,
  RISK_SIGNALS,
} from '@kamai/contract';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, accountValidations, auditLog, entries, postings, settings, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { addRiskReasons } from '../src/features/withdrawals/withdrawals.queries';
import { createTestContext, type TestContext } from './helpers';
import { API, fund, review, withdraw } from './payout-helpers';
import { type RazorpayxFake, type Sender, startRazorpayxFake } from './razorpayx-fake';
import { addAccountValidation, type ValidationFake } from './razorpayx-validation-fake';

const KEYS = {
  keyId: 'rzp_test_KamaiFakeVal1',
  keySecret: 'fake-key-secret-val-0123',
  accountNumber: '7878780080316316',
  webhookSecret: 'whsec-validation-0123456',
};
const WEBHOOK = `${API}/common/pay/notify/razorpayx`;

/**
 * Payout account checks through RazorpayX against the local fake (server/test/razorpayx-validation-fake.ts,
 * written from the account validation pages): what binding sends, the webhook and the fetch settling a
 * check once, refused numbers, name reasons for reviewers, the per-day limit, reuse and the fee.
 */
describe('payout account validation against the RazorpayX fake', () => {
  let fake: RazorpayxFake;
  let bank: ValidationFake;
  let ctx: TestContext;
  let via: Sender;
  let seq = 0;

  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    bank = addAccountValidation(fake, KEYS);
    ctx = await createTestContext({
      PAYOUT_GATEWAY: 'razorpayx',
      RAZORPAYX_KEY_ID: KEYS.keyId,
      RAZORPAYX_KEY_SECRET: KEYS.keySecret,
      RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
      RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
      RAZORPAYX_BASE_URL: fake.url,
      RAZORPAYX_TIMEOUT_MS: '2000',
      PAYOUT_RECONCILE_AFTER_SECONDS: '600',
      PAYOUT_GATEWAY_SECRET: 'sandbox-secret-0123456789',
    });
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

  /** A bank account number no other test binds. */
  const accountNo = () => `5010${String(Date.now()).slice(-6)}${String(++seq).padStart(4, '1')}`;

  async function bind(token: string, body: Record<string, unknown>) {
    return ctx.post(`${API}/user/wdaccount/bind`, { accountType: 'bank', ifsc: 'HDFC0001234', ...body }, { token });
  }
  async function own(token: string, id: number) {
    const list = await ctx.get(`${API}/user/wdaccount/list`, { token });
    return (list.body.data.items as PayoutAccountItem[]).find((a) => a.id === id);
  }
  async function adminItem(id: number) {
    const list = await ctx.get(`${API}/admin/withdraw/list?limit=100`, { token: await ctx.adminToken() });
    return (list.body.data.items as AdminWithdrawalItem[]).find((w) => w.id === id);
  }
  /** Binds a bank account and lets the start job create its validation at the fake. */
  async function bound(token: string, name: string, number = accountNo()) {
    const res = await bind(token, { accountNo: number, accountName: name });
    expect(res.status).toBe(200);
    await ctx.worker.jobs.runDue();
    const validation = bank.latestFor(number);
    if (!validation) throw new Error('the fake has no validation');
    return { id: res.body.data.id as number, number, validation };
  }
  const completed = (number: string, name: string | null, status: 'active' | 'invalid' = 'active') =>
    bank.deliver(
      'fund_account.validation.completed',
      bank.complete(bank.latestFor(number)?.id ?? '', { accountStatus: status, registeredName: name }),
      { via },
    );

  it('binding a bank account creates the contact, the fund account and the penny drop from our account number', async () => {
    const user = await ctx.newUser();
    const before = fake.requests.length;
    const { id, number, validation } = await bound(user.token, 'Rahul K Sharma');
    const calls = fake.requests.slice(before);
    expect(calls.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v1/contacts 201',
      'POST /v1/fund_accounts 200',
      'POST /v1/fund_accounts/validations 200',
    ]);
    expect(calls.every((r) => r.authorized)).toBe(true);
    expect(calls[0]?.body).toMatchObject({
      name: 'Rahul K Sharma',
      type: 'customer',
      reference_id: `kamai-user-${user.id}`,
    });
    expect(calls[1]?.body).toMatchObject({
      account_type: 'bank_account',
      bank_account: { name: 'Rahul K Sharma', ifsc: 'HDFC0001234', account_number: number },
    });
    expect(calls[2]?.body).toMatchObject({
      account_number: KEYS.accountNumber,
      fund_account: { id: validation.fund_account.id },
      amount: 100,
      currency: 'INR',
    });
    expect((await own(user.token, id))?.verification).toEqual({
      state: 'verifying',
      registeredName: null,
      reason: null,
      reasonKey: null,
      verifiedBy: null,
    });
  });

  it('the completed webhook sets the registered name once; a replay and a later fetch change nothing', async () => {
    const user = await ctx.newUser();
    const { id, number, validation } = await bound(user.token, 'Rahul K Sharma');
    const snapshot = bank.complete(validation.id, { accountStatus: 'active', registeredName: 'RAHUL K SHARMA' });
    const first = await bank.deliver('fund_account.validation.completed', snapshot, { via });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data).toEqual({ applied: true });
    expect((await own(user.token, id))?.verification).toEqual({
      state: 'verified',
      registeredName: 'RAHUL K SHARMA',
      reason: null,
      reasonKey: null,
      verifiedBy: 'bank',
    });
    const [stored] = await ctx.db.select().from(accountValidations).where(eq(accountValidations.accountNo, number));
    // The bank's answer changes, and the same event is delivered again: nothing moves.
    const replay = await bank.deliver(
      'fund_account.validation.completed',
      { ...snapshot, results: { account_status: 'invalid', registered_name: 'SOMEONE ELSE' } },
      { via },
    );
    expect(JSON.parse(replay.body).data).toEqual({ applied: false });
    ctx.advance(700_000);
    await ctx.worker.jobs.runDue();
    const [after] = await ctx.db.select().from(accountValidations).where(eq(accountValidations.accountNo, number));
    expect(after).toEqual(stored);
    expect((await own(user.token, id))?.verification?.registeredName).toBe('RAHUL K SHARMA');
  });

  it('without a webhook the check is fetched by id and settled from the answer', async () => {
    const user = await ctx.newUser();
    const { id, validation } = await bound(user.token, 'Meera Shah');
    ctx.advance(700_000);
    await ctx.worker.jobs.runDue();
    expect((await own(user.token, id))?.verification?.state).toBe('verifying');
    bank.complete(validation.id, { accountStatus: 'active', registeredName: 'MEERA SHAH' });
    const before = fake.requests.length;
    ctx.advance(700_000);
    await ctx.worker.jobs.runDue();
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toContain(
      `GET /v1/fund_accounts/validations/${validation.id}`,
    );
    expect((await own(user.token, id))?.verification).toMatchObject({
      state: 'verified',
      registeredName: 'MEERA SHAH',
    });
    // The webhook arriving after the fetch is the same news.
    const late = await bank.deliver('fund_account.validation.completed', bank.validations.get(validation.id) as never, {
      via,
    });
    expect(JSON.parse(late.body).data).toEqual({ applied: false });
  });

  it('a failed or invalid check blocks withdrawals to that account with a translated refusal', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const failed = await bound(user.token, 'Ravi Patel');
    const answer = await bank.deliver('fund_account.validation.failed', bank.fail(failed.validation.id), { via });
    expect(JSON.parse(answer.body).data).toEqual({ applied: true });
    expect((await own(user.token, failed.id))?.verification).toEqual({
      state: 'unverified',
      registeredName: null,
      reason: 'Validation failed due to a technical error at the beneficiary bank',
      reasonKey: null,
      verifiedBy: null,
    });
    const refused = await withdraw(ctx, user.token, { amount: '200', accountId: failed.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ key: 'payout_account_unverified' });
    const hindi = await ctx.post(
      `${API}/user/withdraw/add`,
      { amount: '200', accountId: failed.id },
      { token: user.token, headers: { 'accept-language': 'hi-IN' } },
    );
    expect(hindi.body.message).toBe('इस भुगतान खाते की बैंक से पुष्टि नहीं हो सकी। इसे बदलें या कोई दूसरा खाता चुनें।');

    const invalid = await bound(user.token, 'Ravi Patel');
    await completed(invalid.number, null, 'invalid');
    expect((await own(user.token, invalid.id))?.verification?.state).toBe('unverified');
    expect((await withdraw(ctx, user.token, { amount: '200', accountId: invalid.id })).body).toMatchObject({
      key: 'payout_account_unverified',
    });
    expect(Number(await ctx.balanceOf(user.token))).toBeGreaterThanOrEqual(500);
  });

  it('a withdrawal to an account still verifying is accepted and its payout waits for the result', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const { id: accountId, number } = await bound(user.token, 'Kiran Rao');
    const asked = await withdraw(ctx, user.token, { amount: '300', accountId });
    expect(asked.status).toBe(200);
    const withdrawalId = asked.body.data.id as number;
    expect((await review(ctx, withdrawalId, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    expect(fake.byWithdrawal(withdrawalId)).toHaveLength(0);
    expect((await adminItem(withdrawalId))?.state).toBe('approved');
    await completed(number, 'KIRAN RAO');
    await ctx.worker.jobs.runDue();
    expect(fake.byWithdrawal(withdrawalId)).toHaveLength(1);
    expect((await adminItem(withdrawalId))?.state).toBe('processing');
  });

  it('a registered name far from the typed one is a risk reason, with both names for the reviewer', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const { id: accountId, number } = await bound(user.token, 'Ravi Patel');
    await completed(number, 'SURESH KUMAR YADAV');
    const asked = await withdraw(ctx, user.token, { amount: '200', accountId });
    expect(asked.status).toBe(200);
    const item = await adminItem(asked.body.data.id);
    expect(item?.risk.reasons).toContain('risk_bank_name_mismatch');
    expect(item?.account.accountName).toBe('Ravi Patel');
    expect(item?.payeeCheck).toMatchObject({
      state: 'verified',
      registeredName: 'SURESH KUMAR YADAV',
      nameMatchLow: true,
      otherNames: [],
    });
    expect(item?.payeeCheck?.nameMatch).toBeLessThan(70);
    // The reviewer's decision answers with the same check, read in the approval's own statement.
    const decided = await review(ctx, asked.body.data.id, 'approve');
    expect(decided.status).toBe(200);
    expect(decided.body.data.payeeCheck).toEqual(item?.payeeCheck);

    // The same person written another way (initial, honorific, order, case) is no reason.
    const other = await ctx.newUser();
    await fund(ctx, other.id, '500.00');
    const second = await bound(other.token, 'Mr. Sharma Rahul K.');
    await completed(second.number, 'RAHUL KUMAR SHARMA');
    const fine = await withdraw(ctx, other.token, { amount: '200', accountId: second.id });
    const fineItem = await adminItem(fine.body.data.id);
    expect(fineItem?.risk.reasons).not.toContain('risk_bank_name_mismatch');
    expect(fineItem?.payeeCheck).toMatchObject({ nameMatchLow: false, otherNames: [] });
  });

  it('adds signals judged before the request only to a row that pays the account judged, once each', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const paid = await bound(user.token, 'Meena Shah');
    await completed(paid.number, 'MEENA SHAH');
    const asked = await withdraw(ctx, user.token, { amount: '100', accountId: paid.id });
    expect(asked.status).toBe(200);
    const id = asked.body.data.id as number;
    const row = async () => (await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0];
    const before = await row();
    expect(before?.riskReasons).not.toContain('risk_bank_name_mismatch');
    const order = RISK_SIGNALS.map((s) => RISK_REASON_KEYS[s]);
    const added = { risk_bank_name_mismatch: 30 };
    const account = (no: string, name: string) => ({
      accountType: 'bank',
      ifsc: 'HDFC0001234',
      accountNo: no,
      accountName: name,
    });
    // Judged on another account (one switched or renamed between the read and the request): not this row's.
    for (const other of [account(accountNo(), 'Meena Shah'), account(paid.number, 'Ravi Patel')]) {
      expect(await addRiskReasons(ctx.db, id, other, added, order, RISK_SCORE_MAX)).toBe(false);
    }
    expect(await row()).toEqual(before);
    // On the account it pays: added in the catalogue's order, the score raised by its weight, once.
    const paying = account(paid.number, 'Meena Shah');
    expect(await addRiskReasons(ctx.db, id, paying, added, order, RISK_SCORE_MAX)).toBe(true);
    const after = await row();
    const reasons = new Set([...(before?.riskReasons ?? []), 'risk_bank_name_mismatch']);
    expect(after?.riskReasons).toEqual(order.filter((key) => reasons.has(key)));
    expect(after?.riskScore).toBe(Math.min(RISK_SCORE_MAX, (before?.riskScore ?? 0) + 30));
    expect(await addRiskReasons(ctx.db, id, paying, added, order, RISK_SCORE_MAX)).toBe(true);
    expect(await row()).toEqual(after);
    // None to add only answers whether the row is pending and pays the account; cancelled, it is not.
    expect(await addRiskReasons(ctx.db, id, paying, {}, order, RISK_SCORE_MAX)).toBe(true);
    expect((await ctx.post(`${API}/user/withdraw/cancel`, { id }, { token: user.token })).status).toBe(200);
    expect(await addRiskReasons(ctx.db, id, paying, added, order, RISK_SCORE_MAX)).toBe(false);
  });

  it('shows the reviewer the other account whose name set off the mismatch, judged by the stored minimum', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const first = await bound(user.token, 'Ravi Patel');
    await completed(first.number, 'RAVI PATEL');
    // This account's own names agree; the user's other account carries another person's name.
    const paid = await bound(user.token, 'Suresh Kumar Yadav');
    await completed(paid.number, 'SURESH KUMAR YADAV');
    const asked = await withdraw(ctx, user.token, { amount: '200', accountId: paid.id });
    expect(asked.status).toBe(200);
    const item = await adminItem(asked.body.data.id);
    expect(item?.risk.reasons).toContain('risk_bank_name_mismatch');
    expect(item?.payeeCheck).toEqual({
      state: 'verified',
      registeredName: 'SURESH KUMAR YADAV',
      reason: null,
      reasonKey: null,
      verifiedBy: 'bank',
      nameMatch: 100,
      nameMatchLow: false,
      otherNames: [{ accountName: 'Ravi Patel', registeredName: 'RAVI PATEL', nameMatch: 0, nameMatchLow: true }],
    });

    // The threshold is the setting: at 0 no match is low, in the list and in the review's own statement.
    const token = await ctx.adminToken();
    expect(
      (await ctx.control(`${API}/admin/settings/set`, { accountValidation: { nameMatchMin: 0 } }, { token })).status,
    ).toBe(200);
    try {
      const relaxed = await adminItem(asked.body.data.id);
      expect(relaxed?.payeeCheck).toMatchObject({ nameMatchLow: false, otherNames: [{ nameMatchLow: false }] });
      const decided = await review(ctx, asked.body.data.id, 'approve');
      expect(decided.status).toBe(200);
      expect(decided.body.data.payeeCheck).toEqual(relaxed?.payeeCheck);
    } finally {
      await ctx.db.delete(settings).where(eq(settings.key, 'accountValidation'));
    }
  });

  it('the same registered name on two users’ accounts joins the shared-account signal, scored when the check lands', async () => {
    const first = await ctx.newUser();
    const a = await bound(first.token, 'Anita Desai');
    await completed(a.number, 'ANITA DESAI');
    const second = await ctx.newUser();
    await fund(ctx, second.id, '500.00');
    const b = await bound(second.token, 'Anita Desai');
    const asked = await withdraw(ctx, second.token, { amount: '200', accountId: b.id });
    expect((await adminItem(asked.body.data.id))?.risk.reasons).not.toContain('risk_shared_payout_account');
    await completed(b.number, 'DESAI ANITA');
    expect((await adminItem(asked.body.data.id))?.risk.reasons).toContain('risk_shared_payout_account');
  });

  it("holds the per-day limit under 20 parallel binds; a user's repeated binds reuse their own result, no one else's", async () => {
    const user = await ctx.newUser();
    const numbers = Array.from({ length: 20 }, () => accountNo());
    const answers = await Promise.all(
      numbers.map((n) => bind(user.token, { accountNo: n, accountName: 'Leela Nair' })),
    );
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(3);
    const refused = answers.filter((r) => r.status !== 200);
    expect(new Set(refused.map((r) => `${r.status} ${r.body.key}`))).toEqual(
      new Set(['429 payout_account_validation_limit']),
    );
    expect(refused[0]?.body.message).toBe('You can check at most 3 new payout accounts a day. Try again tomorrow.');

    // The same user binding a number again: no new lookup, no new validation at the bank.
    await ctx.worker.jobs.runDue();
    const created = bank.validations.size;
    const again = numbers[answers.indexOf(ok[0] as never)] as string;
    expect((await bind(user.token, { accountNo: again, accountName: 'Leela Nair' })).status).toBe(200);
    await ctx.worker.jobs.runDue();
    expect(bank.validations.size).toBe(created);
    // Another user binding it gets a check of their own (counted on their own limit): the bank is asked
    // again, and the first user's result (the bank's name) is never handed to them.
    const other = await ctx.newUser();
    expect((await bind(other.token, { accountNo: again, accountName: 'Leela Nair' })).status).toBe(200);
    await ctx.worker.jobs.runDue();
    expect(bank.validations.size).toBe(created + 1);
    // A day later the limit is new.
    ctx.advance(24 * 3600 * 1000 + 1000);
    expect((await bind(user.token, { accountNo: accountNo(), accountName: 'Leela Nair' })).status).toBe(200);
  });

  it('posts each started check’s fee as a platform expense, once, and the ledger balances', async () => {
    await ctx.db
      .insert(settings)
      .values({ key: 'accountValidation', value: { feePaise: 450 } })
      .onConflictDoUpdate({ target: settings.key, set: { value: { feePaise: 450 } } });
    const user = await ctx.newUser();
    const { number } = await bound(user.token, 'Farah Khan');
    const [check] = await ctx.db.select().from(accountValidations).where(eq(accountValidations.accountNo, number));
    const key = `account-validation:${check?.id}:1:fee`;
    await completed(number, 'FARAH KHAN');
    await completed(number, 'FARAH KHAN');
    const rows = await ctx.db
      .select({ type: postings.type, kind: accounts.kind, amount: entries.amount })
      .from(postings)
      .innerJoin(entries, eq(entries.postingId, postings.id))
      .innerJoin(accounts, eq(accounts.id, entries.accountId))
      .where(and(like(postings.idempotencyKey, key)));
    expect(rows.sort((x, y) => x.kind.localeCompare(y.kind))).toEqual([
      { type: 'account_validation_fee', kind: 'platform_expenses', amount: 450n },
      { type: 'account_validation_fee', kind: 'platform_revenue', amount: -450n },
    ]);
    await ctx.db.delete(settings).where(eq(settings.key, 'accountValidation'));
  });

  it('shows the account check settings, changes only the fields sent, refuses bad values, audits; admins only', async () => {
    const token = await ctx.adminToken();
    const set = (accountValidation: Record<string, unknown>, as = token) =>
      ctx.control(`${API}/admin/settings/set`, { accountValidation }, { token: as });
    try {
      expect((await ctx.get(`${API}/admin/settings/get`, { token })).body.data.accountValidation).toEqual({
        dailyLimit: 3,
        fee: '3.00',
        nameMatchMin: 70,
      });
      const changed = await set({ nameMatchMin: 80 });
      expect(changed.status).toBe(200);
      expect(changed.body.data.accountValidation).toEqual({ dailyLimit: 3, fee: '3.00', nameMatchMin: 80 });
      expect((await set({ fee: '4.50', dailyLimit: 5 })).body.data.accountValidation).toEqual({
        dailyLimit: 5,
        fee: '4.50',
        nameMatchMin: 80,
      });
      const [stored] = await ctx.db.select().from(settings).where(eq(settings.key, 'accountValidation'));
      expect(stored?.value).toEqual({ dailyLimit: 5, feePaise: 450, nameMatchMin: 80 });

      for (const [bad, key] of [
        [{ nameMatchMin: 101 }, 'name_match_min_range'],
        [{ nameMatchMin: -1 }, 'name_match_min_range'],
        [{ nameMatchMin: 'most' }, 'name_match_min_range'],
        [{ dailyLimit: 0 }, 'account_check_limit_range'],
        [{ dailyLimit: 1.5 }, 'account_check_limit_range'],
        [{ fee: '100.01' }, 'account_check_fee_range'],
        [{ fee: '1.234' }, 'account_check_fee_range'],
        [{ fee: -1 }, 'account_check_fee_range'],
      ] as const) {
        const res = await set(bad);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body).toMatchObject({
          code: 400,
          key,
          data: { fields: { [`accountValidation.${Object.keys(bad)[0]}`]: key } },
        });
        expect(res.body.message).toBeTruthy();
      }
      const hindi = await ctx.control(
        `${API}/admin/settings/set`,
        { accountValidation: { nameMatchMin: 200 } },
        { token, headers: { 'accept-language': 'hi_IN' } },
      );
      expect(hindi.body.message).toBe('न्यूनतम नाम मिलान 0 से 100 के बीच दर्ज करें');
      // Nothing refused was stored.
      expect((await ctx.get(`${API}/admin/settings/get`, { token })).body.data.accountValidation).toEqual({
        dailyLimit: 5,
        fee: '4.50',
        nameMatchMin: 80,
      });

      const audit = await ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'settings.set'), eq(auditLog.target, 'setting:accountValidation')))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(audit[0]).toMatchObject({
        before: { dailyLimit: 3, fee: '3.00', nameMatchMin: 80 },
        after: { dailyLimit: 5, fee: '4.50', nameMatchMin: 80 },
      });

      const reviewer = await ctx.staff('reviewer');
      expect((await ctx.get(`${API}/admin/settings/get`, { token: reviewer.token })).status).toBe(200);
      expect((await set({ nameMatchMin: 10 }, reviewer.token)).status).toBe(403);
      expect((await set({ nameMatchMin: 10 }, (await ctx.newUser()).token)).status).toBe(403);

      // The new limit counts: five new numbers a day, the sixth refused.
      const user = await ctx.newUser();
      for (let i = 0; i < 5; i++)
        expect((await bind(user.token, { accountNo: accountNo(), accountName: 'Mala Sen' })).status).toBe(200);
      const sixth = await bind(user.token, { accountNo: accountNo(), accountName: 'Mala Sen' });
      expect(sixth.body.key).toBe('payout_account_validation_limit');
    } finally {
      await ctx.db.delete(settings).where(eq(settings.key, 'accountValidation'));
    }
  });
});
