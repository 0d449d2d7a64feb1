import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users, withdrawals } from '../src/db/schema';
import { checkLedger, post } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';

const ADMIN = '/go_user/api/v1/admin';
const DAY_MS = 86_400_000;
let ctx: TestContext;
let adminToken: string;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.adminToken();
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

async function dashboard() {
  const res = await ctx.get(`${ADMIN}/dashboard`, { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.data;
}

const paise = (rupees: string) => Math.round(Number(rupees) * 100);

function move(type: 'withdrawal_hold' | 'withdrawal_paid', userId: number, amount: bigint) {
  const [from, to] =
    type === 'withdrawal_hold'
      ? [
          { userId, kind: 'wallet' as const },
          { userId, kind: 'hold' as const },
        ]
      : [{ userId, kind: 'hold' as const }, { kind: 'platform_payouts' as const }];
  return ctx.db.transaction((tx) =>
    post(tx, {
      type,
      idempotencyKey: `test:${type}:${++seq}`,
      entries: [
        { account: from, amount: -amount },
        { account: to, amount },
      ],
    }),
  );
}

describe('admin/dashboard', () => {
  it('counts users, new ones since midnight in India, balances held and withdrawals paid today', async () => {
    const before = await dashboard();
    expect(before.day).toMatchObject({ timeZone: 'Asia/Kolkata' });
    expect(before.day.start).toMatch(/T18:30:00\.000Z$/);
    expect(before.withdrawals.pending).toEqual({ count: 0, amount: '0.00' });

    // ₹5 for registering, ₹0.50 rebate to the admin who invited.
    const user = await ctx.newUser();
    await move('withdrawal_hold', user.id, 300n);
    await move('withdrawal_paid', user.id, 100n);
    // The ₹2 still held stands for a withdrawal under review (checkLedger pairs every hold with one).
    await ctx.db.insert(withdrawals).values({
      userId: user.id,
      accountType: 'upi',
      accountNo: 'user@upi',
      accountName: 'User',
      ifsc: '',
      amount: 200n,
      state: 'pending',
    });
    const after = await dashboard();
    expect(after.users.total - before.users.total).toBe(1);
    expect(after.users.newToday - before.users.newToday).toBe(1);
    expect(paise(after.balances.wallets) - paise(before.balances.wallets)).toBe(550 - 300);
    expect(paise(after.balances.holds) - paise(before.balances.holds)).toBe(200);
    expect(after.withdrawals.paidToday.count - before.withdrawals.paidToday.count).toBe(1);
    expect(after.withdrawals.pending).toEqual({ count: 1, amount: '2.00' });
    expect(paise(after.withdrawals.paidToday.amount) - paise(before.withdrawals.paidToday.amount)).toBe(100);

    // Joined one second before this Indian day began: a user, but not a new one today.
    await ctx.db
      .update(users)
      .set({ createdAt: new Date(Date.parse(after.day.start) - 1000) })
      .where(eq(users.id, user.id));
    const moved = await dashboard();
    expect(moved.users).toEqual({ total: after.users.total, newToday: after.users.newToday - 1 });

    ctx.advance(DAY_MS);
    const tomorrow = await dashboard();
    expect(Date.parse(tomorrow.day.start) - Date.parse(after.day.start)).toBe(DAY_MS);
    expect(tomorrow.users.newToday).toBe(0);
    expect(tomorrow.withdrawals.paidToday).toEqual({ count: 0, amount: '0.00' });
  });

  it("reports the ledger check's status", async () => {
    expect((await dashboard()).ledger).toEqual({ ok: true, problemCount: 0 });
    const user = await ctx.newUser();
    const wallet = sql`${accounts.userId} = ${user.id} and ${accounts.kind} = 'wallet'`;
    await ctx.db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + 1` })
      .where(wallet);
    try {
      expect((await dashboard()).ledger).toEqual({ ok: false, problemCount: 2 });
    } finally {
      await ctx.db
        .update(accounts)
        .set({ balance: sql`${accounts.balance} - 1` })
        .where(wallet);
    }
  });
});
