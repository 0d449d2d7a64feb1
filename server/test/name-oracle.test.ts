import { readFileSync } from 'node:fs';
import type { AdminWithdrawalItem, PayoutAccountItem } from '@kamai/contract';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accountValidationLookups,
  accountValidations,
  payoutAccounts,
  postings,
  settings,
  users,
} from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API, fund, withdraw } from './payout-helpers';

/**
 * The name oracle, as an attacker tries it over HTTP (docs/decisions/account-deletion.md,
 * payout-account-validation.md): a bank's answer about an account number belongs to the user whose
 * check asked, whether that user deleted the account or is still active; and the identity rules that
 * stop one person from coming back as another (canonical-identity.md) hold in the same walk.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db
    .insert(settings)
    .values({ key: 'accountValidation', value: { feePaise: 300 } })
    .onConflictDoUpdate({ target: settings.key, set: { value: { feePaise: 300 } } });
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** Sends a code to `typed` and registers with it; the raw answer. */
async function register(typed: string, lang?: string) {
  const sent = await ctx.post(`${API}/common/otp/send`, { target: typed, type: 1 }, { lang });
  if (sent.status !== 200) return sent;
  return ctx.post(
    `${API}/common/user/register`,
    {
      username: typed,
      password: 'secret123',
      password2: 'secret123',
      verifyCode: await ctx.lastCode(typed.toLowerCase()),
      inviteCode: ctx.admin.inviteCode,
    },
    { lang },
  );
}

/** Binds an account and lets the (sandbox) check run; the account as its owner's list shows it. */
async function bindChecked(token: string, body: Record<string, string>) {
  const bound = await ctx.post(`${API}/user/wdaccount/bind`, body, { token });
  expect(bound.status, JSON.stringify(bound.body)).toBe(200);
  await ctx.worker.jobs.runDue();
  const list = await ctx.get(`${API}/user/wdaccount/list`, { token });
  return (list.body.data.items as PayoutAccountItem[]).find((a) => a.id === bound.body.data.id);
}

/** How many checks' fees were posted for `user`'s checks (one per gateway call in the sandbox). */
async function feesOf(userId: number) {
  const own = await ctx.db
    .select({ id: accountValidations.id })
    .from(accountValidations)
    .where(eq(accountValidations.requestedBy, userId));
  let n = 0;
  for (const v of own) {
    const rows = await ctx.db
      .select({ id: postings.id })
      .from(postings)
      .where(and(like(postings.idempotencyKey, `account-validation:${v.id}:%:fee`)));
    n += rows.length;
  }
  return n;
}

const deleteAccount = (token: string) => ctx.post(`${API}/user/account/delete`, { password: 'secret123' }, { token });

describe('a validation result is never shared between users', () => {
  it("answers each user from their own check: never a deleted user's name, never an active user's; one identity per mailbox", async () => {
    const BANK = { accountType: 'bank', ifsc: 'KKBK0004521', accountNo: '918273645501' };
    const UPI = { accountType: 'upi', accountNo: 'meena.oracle@okhdfc' };

    // A binds and validates bank account X, and a UPI id; then deletes the account.
    const a = await register('meena.oracle@gmail.com');
    expect(a.status).toBe(200);
    const aToken = a.body.data.token as string;
    const aBank = await bindChecked(aToken, { ...BANK, accountName: 'Meena Oracle' });
    expect(aBank?.verification).toMatchObject({ state: 'verified', registeredName: 'MEENA ORACLE' });
    expect((await bindChecked(aToken, { ...UPI, accountName: 'Meena Oracle' }))?.verification?.state).toBe('verified');
    const aId = (await ctx.get(`${API}/user/user/detail`, { token: aToken })).body.data.id as number;
    expect(await feesOf(aId)).toBe(2);
    expect((await deleteAccount(aToken)).status).toBe(200);

    // The same mailbox under other spellings is one identity: a dot, a +tag, googlemail.com.
    for (const spelling of ['meenaoracle+x@gmail.com', 'm.e.e.n.a.oracle@googlemail.com']) {
      const back = await register(spelling);
      expect(back.status, spelling).toBe(200);
      const [row] = await ctx.db.select().from(users).where(eq(users.username, spelling));
      expect(row?.returningIdentity, spelling).toBe(true);
      if (spelling.startsWith('meenaoracle+')) {
        // A second live account of the same mailbox is refused, in the reader's language.
        const twin = await register('meena.oracle+two@gmail.com', 'hi-IN');
        expect(twin.body).toMatchObject({ key: 'username_taken', message: 'यह फ़ोन या ई-मेल पहले से पंजीकृत है' });
        expect((await deleteAccount(back.body.data.token)).status).toBe(200);
      }
    }
    // A display name or a second recipient is no username.
    for (const attack of ['abkoz<mallory@evil.co>', 'x,attacker@evil.co']) {
      const sent = await ctx.post(`${API}/common/otp/send`, { target: attack, type: 1 }, { lang: 'zh-CN' });
      expect(sent.status, attack).toBe(400);
      expect(JSON.stringify(sent.body), attack).toMatch(/email_plain_address_only/);
    }

    // C, still active, binds and validates account Y.
    const c = await ctx.newUser();
    const Y = { accountType: 'bank', ifsc: 'SBIN0007731', accountNo: '302010405599' };
    expect((await bindChecked(c.token, { ...Y, accountName: 'Chitra Oracle' }))?.verification).toMatchObject({
      state: 'verified',
      registeredName: 'CHITRA ORACLE',
    });

    // B binds X, A's UPI id and Y: a check of B's own each time, with B's own fee, never another's name.
    const b = await ctx.newUser();
    const feesBefore = await feesOf(b.id);
    for (const account of [BANK, UPI, Y]) {
      const seen = await bindChecked(b.token, { ...account, accountName: 'Bharat Oracle' });
      expect(seen?.verification?.registeredName, account.accountNo).toBe('BHARAT ORACLE');
      expect(JSON.stringify(seen), account.accountNo).not.toMatch(/MEENA|CHITRA/i);
    }
    expect(await feesOf(b.id)).toBe(feesBefore + 3);
    // A's checks kept no number, no name: nothing left to hand to B.
    const kept = await ctx.db.select().from(accountValidations).where(eq(accountValidations.requestedBy, aId));
    expect(JSON.stringify(kept)).not.toMatch(/MEENA|918273645501|meena\.oracle/i);
    // What the fraud rules keep is a keyed hash: B's withdrawal to X is flagged as a number another
    // user (A, deleted) had checked, though nothing of A's number or name is left to compare.
    const xId = (await ctx.get(`${API}/user/wdaccount/list`, { token: b.token })).body.data.items.find(
      (item: PayoutAccountItem) => item.accountType === 'bank' && item.accountNoMasked.endsWith('5501'),
    )?.id;
    await fund(ctx, b.id, '300.00');
    const asked = await withdraw(ctx, b.token, { amount: '100', accountId: xId });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const queue = await ctx.get(`${API}/admin/withdraw/list?limit=100`, { token: await ctx.adminToken() });
    const item = (queue.body.data.items as AdminWithdrawalItem[]).find((w) => w.id === asked.body.data.id);
    expect(item?.risk.reasons).toContain('risk_shared_payout_account');
    // C still reads C's own name.
    const cList = await ctx.get(`${API}/user/wdaccount/list`, { token: c.token });
    expect(cList.body.data.items[0].verification.registeredName).toBe('CHITRA ORACLE');
  });
});

describe('upgrading to owner-scoped checks (migration 0031_validation_erasure)', () => {
  it("gives an account that pointed at another user's check a check of its owner's own, started by the job runner", async () => {
    const NUMBER = { accountType: 'bank', ifsc: 'HDFC0003141', accountNo: '605040302011' };
    const first = await ctx.newUser();
    const second = await ctx.newUser();
    await bindChecked(first.token, { ...NUMBER, accountName: 'Farida Upgrade' });
    const own = await bindChecked(second.token, { ...NUMBER, accountName: 'Gopal Upgrade' });
    // The state before the upgrade: the second user's account answered by the first user's check.
    const [shared] = await ctx.db
      .select()
      .from(accountValidations)
      .where(and(eq(accountValidations.requestedBy, first.id), eq(accountValidations.accountNo, NUMBER.accountNo)));
    const [mine] = await ctx.db
      .select()
      .from(accountValidations)
      .where(and(eq(accountValidations.requestedBy, second.id), eq(accountValidations.accountNo, NUMBER.accountNo)));
    if (!shared || !mine || !own) throw new Error('no checks');
    await ctx.db.update(payoutAccounts).set({ validationId: shared.id }).where(eq(payoutAccounts.id, own.id));
    await ctx.db
      .update(accountValidationLookups)
      .set({ validationId: shared.id })
      .where(eq(accountValidationLookups.validationId, mine.id));
    await ctx.db.delete(accountValidations).where(eq(accountValidations.id, mine.id));
    const before = await bindList(second.token);
    expect(before?.verification?.registeredName).toBe('FARIDA UPGRADE');

    // The migration's data statements (after its schema changes), as the upgrade runs them.
    const text = readFileSync(new URL('../src/db/migrations/0031_validation_erasure.sql', import.meta.url), 'utf8');
    const statements = text
      .split('--> statement-breakpoint')
      .filter((s) => /^\s*(--[^\n]*\n\s*)*(INSERT|UPDATE)/.test(s));
    expect(statements).toHaveLength(4);
    for (const statement of statements) await ctx.db.execute(sql.raw(statement));

    const after = await bindList(second.token);
    expect(after?.verification?.state).toBe('verifying');
    await ctx.worker.jobs.runDue();
    expect((await bindList(second.token))?.verification?.registeredName).toBe('GOPAL UPGRADE');
    const lookups = await ctx.db
      .select()
      .from(accountValidationLookups)
      .where(eq(accountValidationLookups.userId, second.id));
    const [renewed] = await ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.id, own.id));
    expect(lookups.map((l) => l.validationId)).toContain(renewed?.validationId);
    expect(lookups.map((l) => l.validationId)).not.toContain(shared.id);
    // The first user's own account and check are as they were.
    expect((await bindList(first.token))?.verification?.registeredName).toBe('FARIDA UPGRADE');
  });
});

async function bindList(token: string) {
  const list = await ctx.get(`${API}/user/wdaccount/list`, { token });
  return (list.body.data.items as PayoutAccountItem[]).find((a) => a.accountNoMasked.endsWith('2011'));
}
