import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, settings, users } from '../src/db/schema';
import { checkLedger, post } from '../src/features/wallet/wallet.ledger';
import { getSetting } from '../src/platform/settings.queries';
import { createTestContext, type TestContext } from './helpers';
import { callbackUrl, nowSeconds, payee, review, withdraw } from './payout-helpers';

const ADMIN = '/go_user/api/v1/admin';
const DAY_MS = 86_400_000;
let ctx: TestContext;
let adminToken: string;
let seq = 0;

const SECRET = 'dashboard-test-secret-0123456789';

beforeAll(async () => {
  ctx = await createTestContext({ SANDBOX_PAYOUT_DELAY_MS: '3600000', PAYOUT_GATEWAY_SECRET: SECRET });
  adminToken = await ctx.adminToken();
  // A ₹10 fee on every withdrawal: the dashboard shows gross, fee and net apart.
  const limits = await getSetting(ctx.db, 'withdrawal');
  await ctx.db
    .insert(settings)
    .values({ key: 'withdrawal', value: { ...limits, feePaise: 1000 } })
    .onConflictDoUpdate({ target: settings.key, set: { value: { ...limits, feePaise: 1000 } } });
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

/** Money for a staff wallet (a manual credit posted straight, as a staff wallet may hold some). */
function move(type: 'manual_credit', userId: number, amount: bigint) {
  return ctx.db.transaction((tx) =>
    post(tx, {
      type,
      idempotencyKey: `test:${type}:${++seq}`,
      entries: [
        { account: { kind: 'platform_revenue' }, amount: -amount },
        { account: { userId, kind: 'wallet' }, amount },
      ],
    }),
  );
}

describe('admin/dashboard', () => {
  it('counts users, new ones since midnight in India, what users hold (staff left out) and what reached banks today', async () => {
    const before = await dashboard();
    expect(before.day).toMatchObject({ timeZone: 'Asia/Kolkata' });
    expect(before.day.start).toMatch(/T18:30:00\.000Z$/);

    // ₹1,000 in the wallet; the credit's rebate, if any, goes to the admin who invited (a staff wallet).
    const user = await payee(ctx, 1000);
    const reviewer = await ctx.staff('reviewer');
    await move('manual_credit', reviewer.id, 70_000n);
    const paid = (await withdraw(ctx, user.token, { amount: 300 })).body.data.id as number;
    expect((await review(ctx, paid, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    const report = {
      orderNo: String(paid),
      status: 'success',
      amount: '290.00',
      ts: nowSeconds(ctx),
      reference: 'UTR1',
    };
    expect((await ctx.getText(callbackUrl(report, SECRET))).text).toBe('success');
    expect((await withdraw(ctx, user.token, { amount: 200 })).status).toBe(200);

    const after = await dashboard();
    // Staff wallets (the admin's rebates, the reviewer's ₹700) are not money the platform owes users.
    expect.soft(paise(after.balances.wallets) - paise(before.balances.wallets)).toBe(50_000);
    const [owed] = await ctx.db
      .select({ total: sql<string>`coalesce(sum(${accounts.balance}), 0)::text` })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(sql`${users.role} = 'user' and ${accounts.kind} = 'wallet'`);
    expect.soft(paise(after.balances.wallets)).toBe(Number(owed?.total));
    expect(paise(after.balances.holds) - paise(before.balances.holds)).toBe(20_000);
    // The reviewer is staff: not counted among users either.
    expect(after.users.total - before.users.total).toBe(1);
    expect(after.users.newToday - before.users.newToday).toBe(1);
    expect.soft(after.withdrawals.pending).toEqual({ count: 1, amount: '200.00', fee: '10.00', net: '190.00' });
    // What reached the bank: ₹300 asked for, the ₹10 fee kept, ₹290 paid out.
    expect.soft(after.withdrawals.paidToday).toEqual({ count: 1, amount: '300.00', fee: '10.00', net: '290.00' });

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
    expect(tomorrow.withdrawals.paidToday).toEqual({ count: 0, amount: '0.00', fee: '0.00', net: '0.00' });
  });

  it("reports the ledger check's status", async () => {
    expect((await dashboard()).ledger).toEqual({ ok: true, problemCount: 0, violationCount: 0 });
    const user = await ctx.newUser();
    const wallet = sql`${accounts.userId} = ${user.id} and ${accounts.kind} = 'wallet'`;
    await ctx.db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + 1` })
      .where(wallet);
    try {
      expect((await dashboard()).ledger).toEqual({ ok: false, problemCount: 2, violationCount: 0 });
    } finally {
      await ctx.db
        .update(accounts)
        .set({ balance: sql`${accounts.balance} - 1` })
        .where(wallet);
    }
  });
});
