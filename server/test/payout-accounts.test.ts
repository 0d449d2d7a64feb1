import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, ownWithdrawal, payee, review, withdraw } from './payout-helpers';

let ctx: TestContext;
const BIND = `${API}/user/wdaccount/bind`;
const EDIT = `${API}/user/wdaccount/edit`;
const DELETE = `${API}/user/wdaccount/delete`;
const LIST = `${API}/user/wdaccount/list`;

beforeAll(async () => {
  ctx = await createTestContext();
  // Ten accounts a user: more new numbers a day than the check's default limit (account-validation.test.ts tests it).
  await ctx.db.insert(settings).values({ key: 'accountValidation', value: { dailyLimit: 20 } });
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

const bank = {
  accountType: 'bank',
  isDefault: 0,
  ifsc: 'hdfc0ckub01',
  accountNo: '5010 0123 4567 89',
  accountName: 'Asha Kumari',
};

async function list(token: string) {
  const res = await ctx.get(LIST, { token });
  expect(res.status).toBe(200);
  return res.body.data.items as { id: number; isDefault: number; accountNoMasked: string; [k: string]: unknown }[];
}

describe('wdaccount bind and list', () => {
  it('saves a UPI account as the default and a bank account beside it, numbers masked', async () => {
    const { token } = await ctx.newUser();
    const upi = await ctx.post(BIND, { accountNo: 'Asha.K@OKAxis', accountName: 'Asha Kumari' }, { token });
    expect(upi.status).toBe(200);
    expect(upi.body).toMatchObject({ code: 200, key: 'payout_account_bound', message: 'Binding successful' });
    const bankRes = await ctx.post(BIND, bank, { token });
    expect(bankRes.status).toBe(200);

    const items = await list(token);
    expect(items).toEqual([
      expect.objectContaining({
        id: upi.body.data.id,
        accountType: 'upi',
        isDefault: 1,
        ifsc: '',
        accountNoMasked: 'as•••@okaxis',
        accountName: 'Asha Kumari',
      }),
      expect.objectContaining({
        id: bankRes.body.data.id,
        accountType: 'bank',
        isDefault: 0,
        ifsc: 'HDFC0CKUB01',
        accountNoMasked: '••••6789',
      }),
    ]);
    expect(JSON.stringify(items)).not.toContain('501001234');
  });

  it('makes the first account the default even when sent with isDefault 0, and keeps one default', async () => {
    const { token } = await ctx.newUser();
    const first = await ctx.post(BIND, bank, { token });
    const second = await ctx.post(BIND, { ...bank, isDefault: 1, accountNo: '111122223333' }, { token });
    const items = await list(token);
    expect(items.map((i) => [i.id, i.isDefault])).toEqual([
      [second.body.data.id, 1],
      [first.body.data.id, 0],
    ]);
  });

  it('keeps exactly one default when ten accounts are bound as default at once', async () => {
    const { token } = await ctx.newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ctx.post(BIND, { accountNo: `asha${i}@okaxis`, accountName: 'Asha', isDefault: 1 }, { token }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const items = await list(token);
    expect(items).toHaveLength(10);
    expect(items.filter((i) => i.isDefault === 1)).toHaveLength(1);
  });

  it('refuses an eleventh account', async () => {
    const { token } = await ctx.newUser();
    for (let i = 0; i < 10; i++) await bindUpi(ctx, token, `user${i}@ybl`);
    const res = await ctx.post(BIND, { accountNo: 'user10@ybl', accountName: 'Asha' }, { token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ key: 'payout_account_limit', message: 'You can save at most 10 payout accounts' });
  });

  it('names every bad field with its catalogue key, in the caller language', async () => {
    const { token } = await ctx.newUser();
    const res = await ctx.post(
      BIND,
      { accountType: 'bank', accountNo: '12', ifsc: 'HDFC1234567', accountName: '' },
      { token, lang: 'hi-IN' },
    );
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual({
      accountName: 'enter_recipient_name',
      accountNo: 'invalid_account_number',
      ifsc: 'invalid_ifsc',
    });
    expect(res.body.message).toBe('प्राप्तकर्ता का नाम दर्ज करें');
    const upi = await ctx.post(BIND, { accountNo: 'not-an-upi', accountName: 'Asha' }, { token });
    expect(upi.body.data.fields).toEqual({ accountNo: 'invalid_upi_id' });
    expect(await list(token)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.post(BIND, bank)).status).toBe(401);
    expect((await ctx.get(LIST)).status).toBe(401);
  });
});

describe('wdaccount edit and delete', () => {
  it('keeps the stored number when accountNo is left empty, and its default standing when isDefault is', async () => {
    const { token } = await ctx.newUser();
    const id = (await ctx.post(BIND, { ...bank, isDefault: 1 }, { token })).body.data.id;
    const res = await ctx.post(
      EDIT,
      { ...bank, id, isDefault: undefined, accountNo: '', accountName: 'A Kumari' },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.key).toBe('payout_account_saved');
    expect(res.body.data).toMatchObject({ id, accountNoMasked: '••••6789', accountName: 'A Kumari', isDefault: 1 });

    const switched = await ctx.post(EDIT, { id, accountType: 'upi', accountName: 'A Kumari' }, { token });
    expect(switched.status).toBe(400);
    expect(switched.body.data.fields).toEqual({ accountNo: 'enter_upi_id' });
  });

  it('passes the default to the newest remaining account when the default is deleted', async () => {
    const { token } = await ctx.newUser();
    const a = await bindUpi(ctx, token, 'a1@ybl');
    const b = (await ctx.post(BIND, { ...bank, accountNo: '123456789' }, { token })).body.data.id;
    const c = (await ctx.post(BIND, { ...bank, accountNo: '987654321' }, { token })).body.data.id;
    const res = await ctx.post(DELETE, { id: a }, { token });
    expect(res.status).toBe(200);
    expect(res.body.key).toBe('payout_account_deleted');
    expect((await list(token)).map((i) => [i.id, i.isDefault])).toEqual([
      [c, 1],
      [b, 0],
    ]);
  });

  it('refuses to delete an account named by a pending withdrawal, and allows it once reviewed', async () => {
    const user = await payee(ctx, 500);
    const [account] = await list(user.token);
    if (!account) throw new Error('no account');
    const w = await withdraw(ctx, user.token, { amount: 200 });
    expect(w.status).toBe(200);

    const refused = await ctx.post(DELETE, { id: account.id }, { token: user.token });
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe('payout_account_in_use');

    expect((await review(ctx, w.body.data.id, 'reject', 'Name does not match')).status).toBe(200);
    expect((await ctx.post(DELETE, { id: account.id }, { token: user.token })).status).toBe(200);
    // The withdrawal keeps its own copy of where the money was to go.
    const item = await ownWithdrawal(ctx, user.token, w.body.data.id);
    expect(item).toMatchObject({ account: { id: null, accountType: 'upi', accountNoMasked: 'as•••@okaxis' } });
  });
});

describe("another user's accounts and withdrawals (IDOR)", () => {
  it('cannot be listed, edited, deleted or withdrawn to, and look like they do not exist', async () => {
    const owner = await payee(ctx, 1000);
    const [account] = await list(owner.token);
    if (!account) throw new Error('no account');
    const mine = await withdraw(ctx, owner.token, { amount: 150 });
    expect(mine.status).toBe(200);
    const intruder = await payee(ctx, 1000);

    expect((await list(intruder.token)).map((i) => i.id)).not.toContain(account.id);
    const edit = await ctx.post(EDIT, { ...bank, id: account.id }, { token: intruder.token });
    expect(edit.status).toBe(404);
    expect(edit.body.key).toBe('payout_account_not_found');
    expect((await ctx.post(DELETE, { id: account.id }, { token: intruder.token })).status).toBe(404);
    const steal = await withdraw(ctx, intruder.token, { amount: 150, accountId: account.id });
    expect(steal.status).toBe(404);
    expect(steal.body.key).toBe('payout_account_not_found');
    expect(await ownWithdrawal(ctx, intruder.token, mine.body.data.id)).toBeUndefined();

    expect(await list(owner.token)).toEqual([expect.objectContaining({ id: account.id, accountName: 'Asha Kumari' })]);
    expect(await ownWithdrawal(ctx, owner.token, mine.body.data.id)).toMatchObject({ state: 'pending' });
  });
});
