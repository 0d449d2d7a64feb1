import type { AccountCheckItem, AdminWithdrawalItem, PayoutAccountItem } from '@kamai/contract';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountValidations, auditLog, payoutAccounts } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, fund, review, withdraw } from './payout-helpers';
import { type RazorpayxFake, startRazorpayxFake } from './razorpayx-fake';
import { addAccountValidation, FEATURE_NOT_ENABLED, type ValidationFake } from './razorpayx-validation-fake';

const KEYS = {
  keyId: 'rzp_live_KamaiFakeChk1',
  keySecret: 'fake-key-secret-chk-0123',
  accountNumber: '7878780080316399',
  webhookSecret: 'whsec-checks-0123456789',
};
const CHECKS = `${API}/admin/account-check/list?limit=100`;
const DECIDE = `${API}/admin/account-check/decide`;

/** The names of issue's walk that RazorpayX refuses, and one it takes. */
const TOO_LONG = 'Asha Kumari Devi Prasad Shrivastava Chaturvedi Sharmaaaaa'; // 57 characters
const BAD_NAMES = [TOO_LONG, 'Asha Kumari-', '(Asha) Kumari'];

function env(fake: RazorpayxFake, extra: Record<string, string> = {}) {
  return {
    PAYOUT_GATEWAY: 'razorpayx',
    RAZORPAYX_KEY_ID: KEYS.keyId,
    RAZORPAYX_KEY_SECRET: KEYS.keySecret,
    RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
    RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
    RAZORPAYX_BASE_URL: fake.url,
    RAZORPAYX_TIMEOUT_MS: '2000',
    PAYOUT_RECONCILE_AFTER_SECONDS: '600',
    PAYOUT_GATEWAY_SECRET: 'sandbox-secret-0123456789',
    ...extra,
  };
}

let seq = 0;
const accountNo = () => `6020${String(Date.now()).slice(-6)}${String(++seq).padStart(4, '3')}`;

async function bind(ctx: TestContext, token: string, name: string, number = accountNo(), lang?: string) {
  return ctx.post(
    `${API}/user/wdaccount/bind`,
    { accountType: 'bank', ifsc: 'HDFC0001234', accountNo: number, accountName: name },
    { token, headers: lang ? { 'accept-language': lang } : {} },
  );
}
async function own(ctx: TestContext, token: string, id: number) {
  const list = await ctx.get(`${API}/user/wdaccount/list`, { token });
  return (list.body.data.items as PayoutAccountItem[]).find((a) => a.id === id);
}
async function queued(ctx: TestContext, token?: string) {
  const res = await ctx.get(CHECKS, { token: token ?? (await ctx.adminToken()) });
  expect(res.status).toBe(200);
  return res.body.data.items as AccountCheckItem[];
}
async function checkOf(ctx: TestContext, accountId: number) {
  const [row] = await ctx.db
    .select({ validationId: payoutAccounts.validationId })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.id, accountId));
  return row?.validationId as number;
}
async function adminItem(ctx: TestContext, id: number) {
  const list = await ctx.get(`${API}/admin/withdraw/list?limit=100`, { token: await ctx.adminToken() });
  return (list.body.data.items as AdminWithdrawalItem[]).find((w) => w.id === id);
}

describe('RazorpayX name rules at binding', () => {
  let fake: RazorpayxFake;
  let ctx: TestContext;
  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    addAccountValidation(fake, KEYS);
    ctx = await createTestContext(env(fake));
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  it('refuses a 57-character name, "Asha Kumari-" and "(Asha) Kumari" with the translated message', async () => {
    expect(TOO_LONG).toHaveLength(57);
    const user = await ctx.newUser();
    const expected = [
      ['recipient_name_length', 'प्राप्तकर्ता का नाम 3 से 50 वर्णों का होना चाहिए'],
      ['recipient_name_last', 'प्राप्तकर्ता का नाम किसी अक्षर, अंक या पूर्ण विराम (.) पर समाप्त होना चाहिए'],
      ['recipient_name_first', 'प्राप्तकर्ता का नाम किसी अक्षर या अंक से शुरू होना चाहिए'],
    ];
    for (const [i, name] of BAD_NAMES.entries()) {
      const res = await bind(ctx, user.token, name, accountNo(), 'hi-IN');
      expect(res.status, name).toBe(400);
      expect(res.body.data.fields.accountName, name).toBe(expected[i]?.[0]);
      expect(res.body.message, name).toBe(expected[i]?.[1]);
    }
    const chinese = await bind(ctx, user.token, 'Asha Kumari-', accountNo(), 'zh-CN');
    expect(chinese.body.message).toBe('收款人姓名须以字母、数字或句点（.）结尾');
    // Nothing was saved and nothing was sent to RazorpayX.
    expect((await ctx.get(`${API}/user/wdaccount/list`, { token: user.token })).body.data.items).toHaveLength(0);
    expect(fake.requests.filter((r) => r.path === '/v1/contacts')).toHaveLength(0);
    // What Razorpay takes, Kamai takes: a full stop at the end, inner punctuation, 50 characters.
    for (const name of ['Asha Kumari Jr.', "D'Souza (Joint) A/C 2", 'A'.repeat(50)]) {
      expect((await bind(ctx, user.token, name)).status, name).toBe(200);
    }
  });

  it('the fake refuses those names as Razorpay documents, with its error body', async () => {
    for (const name of BAD_NAMES) {
      const res = await fetch(`${fake.url}/v1/contacts`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${KEYS.keyId}:${KEYS.keySecret}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name, type: 'customer' }),
      });
      expect(res.status, name).toBe(400);
      expect(await res.json(), name).toEqual({
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'The name field is invalid.',
          source: 'business',
          step: 'NA',
          reason: 'input_validation_failed',
          metadata: {},
          field: 'name',
        },
      });
    }
  });

  it('an account saved earlier with a name RazorpayX refuses must be edited before the next withdrawal', async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const saved = await bind(ctx, user.token, 'Asha Kumari');
    const id = saved.body.data.id as number;
    // As saved before the rule: the stored name ends with a hyphen.
    await ctx.db.update(payoutAccounts).set({ accountName: 'Asha Kumari-' }).where(eq(payoutAccounts.id, id));
    const refused = await ctx.post(
      `${API}/user/withdraw/add`,
      { amount: '200', accountId: id },
      { token: user.token, headers: { 'accept-language': 'mr-IN' } },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe('payout_account_name_rebind');
    expect(refused.body.message).toContain('बँक या खात्याच्या प्राप्तकर्त्याचे नाव स्वीकारत नाही');
    // Editing the name (same number: the check and the day's limit are kept) lets the withdrawal through.
    const edited = await ctx.post(
      `${API}/user/wdaccount/edit`,
      { id, accountType: 'bank', ifsc: 'HDFC0001234', accountNo: '', accountName: 'Asha Kumari' },
      { token: user.token },
    );
    expect(edited.status).toBe(200);
    expect((await withdraw(ctx, user.token, { amount: '200', accountId: id })).status).toBe(200);
  });
});

describe('operators check accounts RazorpayX cannot validate', () => {
  let fake: RazorpayxFake;
  let bank: ValidationFake;
  const fakeOptions: Parameters<typeof addAccountValidation>[1] = { ...KEYS, validationUnavailable: true };
  let ctx: TestContext;
  let off: TestContext;
  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    bank = addAccountValidation(fake, fakeOptions);
    ctx = await createTestContext(env(fake));
    off = await createTestContext(env(fake, { RAZORPAYX_ACCOUNT_VALIDATION: 'off' }));
  });
  afterEach(async () => {
    expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
    expect(await checkLedger(off.db)).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    await ctx?.close();
    await off?.close();
    await fake?.close();
  });

  it('queues one check per user of a shared number, each flagged by the number’s keyed hash', async () => {
    const first = await ctx.newUser();
    const second = await ctx.newUser();
    const number = accountNo();
    expect((await bind(ctx, first.token, 'Rekha Sen', number)).status).toBe(200);
    expect((await bind(ctx, second.token, 'Rekha Sen', number)).status).toBe(200);
    await ctx.worker.jobs.runDue();
    const items = (await queued(ctx)).filter((i) => i.accountNoShown === `••••${number.slice(-4)}`);
    expect(items.map((i) => i.owners.map((o) => o.userId))).toEqual([[first.id], [second.id]]);
    for (const item of items) expect(item.signals).toContain('account_check_signal_shared_number');
  });

  it("RazorpayX's documented refusal sends a new account to the queue; an approval lets its withdrawal be paid", async () => {
    const user = await ctx.newUser();
    await fund(ctx, user.id, '500.00');
    const number = accountNo();
    const res = await bind(ctx, user.token, 'Meena Iyer', number);
    expect(res.status).toBe(200);
    const id = res.body.data.id as number;
    await ctx.worker.jobs.runDue();
    const refusedCall = fake.requests.filter((r) => r.path === '/v1/fund_accounts/validations').at(-1);
    expect(refusedCall?.status).toBe(400);
    expect(FEATURE_NOT_ENABLED.error.description).toBe('The requested URL was not found on the server.');
    expect((await own(ctx, user.token, id))?.verification).toMatchObject({ state: 'review' });

    const item = (await queued(ctx)).find((i) => i.accountName === 'Meena Iyer');
    expect(item).toMatchObject({
      accountType: 'bank',
      accountName: 'Meena Iyer',
      ifsc: 'HDFC0001234',
      bankName: 'HDFC Bank',
      accountNoShown: `••••${number.slice(-4)}`,
      cause: 'unavailable',
      gatewayNote: 'The requested URL was not found on the server.',
      approvalsRequired: 1,
      firstApproverId: null,
    });
    expect(item?.owners).toEqual([expect.objectContaining({ userId: user.id, balance: expect.any(String) })]);
    expect(item?.signals).toContain('account_check_signal_new_user');

    // The withdrawal is accepted and approved, but its payout waits for the operator.
    const asked = await withdraw(ctx, user.token, { amount: '300', accountId: id });
    expect(asked.status).toBe(200);
    const withdrawalId = asked.body.data.id as number;
    expect((await review(ctx, withdrawalId, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    expect(fake.byWithdrawal(withdrawalId)).toHaveLength(0);

    const reviewer = await ctx.staff('reviewer');
    const approved = await ctx.post(
      DECIDE,
      { id: item?.id, action: 'approve', note: 'Passbook photo matches' },
      { token: reviewer.token },
    );
    expect(approved.status).toBe(200);
    expect(approved.body.data).toEqual({ id: item?.id, state: 'approved' });
    expect((await own(ctx, user.token, id))?.verification).toEqual({
      state: 'verified',
      registeredName: null,
      reason: null,
      reasonKey: null,
      verifiedBy: 'operator',
    });
    expect((await queued(ctx)).some((i) => i.id === item?.id)).toBe(false);
    await ctx.worker.jobs.runDue();
    expect(fake.byWithdrawal(withdrawalId)).toHaveLength(1);
    expect((await adminItem(ctx, withdrawalId))?.state).toBe('processing');
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `account_validation:${item?.id}`), like(auditLog.action, 'account_check.%')))
      .orderBy(desc(auditLog.id));
    expect(audit).toMatchObject({ actorId: reviewer.id, action: 'account_check.approve' });
    // Decided once: a second decision is refused.
    const again = await ctx.post(
      DECIDE,
      { id: item?.id, action: 'refuse', reason: 'other' },
      { token: reviewer.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.key).toBe('account_check_decided_already');
  });

  it('with RAZORPAYX_ACCOUNT_VALIDATION=off nothing is sent; a refusal with a reason reaches the user in their language', async () => {
    const user = await off.newUser();
    await fund(off, user.id, '500.00');
    const before = fake.requests.length;
    const res = await bind(off, user.token, 'Sunil Gupta');
    const id = res.body.data.id as number;
    await off.worker.jobs.runDue();
    expect(fake.requests.slice(before)).toHaveLength(0);
    expect((await own(off, user.token, id))?.verification?.state).toBe('review');
    const item = (await queued(off)).find((i) => i.accountName === 'Sunil Gupta');
    expect(item?.cause).toBe('disabled');

    const noReason = await off.post(DECIDE, { id: item?.id, action: 'refuse' }, { token: await off.adminToken() });
    expect(noReason.status).toBe(400);
    expect(noReason.body.data.fields.reason).toBe('account_check_reason_required');
    const refused = await off.post(
      DECIDE,
      { id: item?.id, action: 'refuse', reason: 'account_mismatch', note: 'Name on passbook is different' },
      { token: await off.adminToken() },
    );
    expect(refused.status).toBe(200);
    expect(refused.body.data.state).toBe('refused');
    expect((await own(off, user.token, id))?.verification).toEqual({
      state: 'unverified',
      registeredName: null,
      reason: null,
      reasonKey: 'reject_preset_account_mismatch',
      verifiedBy: null,
    });
    const hindi = await off.post(
      `${API}/user/withdraw/add`,
      { amount: '200', accountId: id },
      { token: user.token, headers: { 'accept-language': 'hi-IN' } },
    );
    expect(hindi.status).toBe(409);
    expect(hindi.body.key).toBe('payout_account_unverified');
  });

  it('above the four-eyes threshold one operator alone cannot approve; a second, different one can', async () => {
    const user = await off.newUser();
    // ₹16,000 at stake (two credits: one above ₹10,000 would wait for a second admin).
    await fund(off, user.id, '8000.00');
    await fund(off, user.id, '8000.00');
    const id = (await bind(off, user.token, 'Pooja Nair')).body.data.id as number;
    const item = (await queued(off)).find((i) => i.accountName === 'Pooja Nair');
    expect(item?.approvalsRequired).toBe(2);
    const first = await off.staff('reviewer');
    const one = await off.post(DECIDE, { id: item?.id, action: 'approve' }, { token: first.token });
    expect(one.status).toBe(200);
    expect(one.body.data.state).toBe('queued');
    expect((await own(off, user.token, id))?.verification?.state).toBe('review');
    const twice = await off.post(DECIDE, { id: item?.id, action: 'approve' }, { token: first.token });
    expect(twice.status).toBe(409);
    expect(twice.body.key).toBe('second_approver_required');
    expect((await own(off, user.token, id))?.verification?.state).toBe('review');
    expect((await queued(off)).find((i) => i.id === item?.id)?.firstApproverId).toBe(first.id);
    const second = await off.staff('reviewer');
    const two = await off.post(DECIDE, { id: item?.id, action: 'approve' }, { token: second.token });
    expect(two.body.data.state).toBe('approved');
    expect((await own(off, user.token, id))?.verification?.state).toBe('verified');
  });

  it('nobody checks an account of their own; users cannot reach the queue', async () => {
    const reviewer = await off.staff('reviewer');
    await bind(off, reviewer.token, 'Reviewer Own Name');
    const item = (await queued(off)).find((i) => i.accountName === 'Reviewer Own Name');
    const self = await off.post(DECIDE, { id: item?.id, action: 'approve' }, { token: reviewer.token });
    expect(self.status).toBe(403);
    expect(self.body.key).toBe('cannot_review_own_account');
    const user = await off.newUser();
    expect((await off.get(CHECKS, { token: user.token })).status).toBe(403);
  });

  it('a check still "Verifying" past the deadline becomes an operator task', async () => {
    fakeOptions.validationUnavailable = false;
    try {
      const user = await ctx.newUser();
      const number = accountNo();
      const id = (await bind(ctx, user.token, 'Harish Menon', number)).body.data.id as number;
      await ctx.worker.jobs.runDue();
      expect(bank.latestFor(number)?.status).toBe('created');
      expect((await own(ctx, user.token, id))?.verification?.state).toBe('verifying');
      expect(await ctx.worker.validations.queueOverdue()).toBe(0);
      ctx.advance(31 * 60_000);
      expect(await ctx.worker.validations.queueOverdue()).toBeGreaterThanOrEqual(1);
      expect((await own(ctx, user.token, id))?.verification?.state).toBe('review');
      const validationId = await checkOf(ctx, id);
      const item = (await queued(ctx)).find((i) => i.id === validationId);
      expect(item?.cause).toBe('overdue');
      // The bank's answer arriving afterwards still settles it, and the task leaves the queue.
      const late = bank.complete(bank.latestFor(number)?.id ?? '', {
        accountStatus: 'active',
        registeredName: 'HARISH MENON',
      });
      await bank.deliver('fund_account.validation.completed', late, {
        via: async (delivery) => {
          const res = await ctx.app.inject({
            method: 'POST',
            url: `${API}/common/pay/notify/razorpayx`,
            payload: delivery.body,
            headers: delivery.headers,
          });
          return { status: res.statusCode, body: res.body };
        },
      });
      expect((await own(ctx, user.token, id))?.verification).toMatchObject({
        state: 'verified',
        registeredName: 'HARISH MENON',
        verifiedBy: 'bank',
      });
      expect((await queued(ctx)).some((i) => i.id === validationId)).toBe(false);
      const [row] = await ctx.db.select().from(accountValidations).where(eq(accountValidations.id, validationId));
      expect(row?.reviewState).toBeNull();
    } finally {
      fakeOptions.validationUnavailable = true;
    }
  });
});
