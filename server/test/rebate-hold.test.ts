import { REBATE_HOLD_DAYS_DEFAULT } from '@kamai/contract';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, postings, rebates, taskCompletions, users } from '../src/db/schema';
import { rebateRuleViolations, releaseDueRebates } from '../src/features/referrals';
import { post } from '../src/features/wallet';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, withdraw } from './payout-helpers';

// Staff earn nothing; manual credits are compensation; rebates are owed only on task rewards, pending
// for a hold, and reversed with their source (docs/decisions/rebate-hold.md).
let ctx: TestContext;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** Paise in one of the user's accounts (0 when it does not exist yet). */
async function balanceOf(userId: number, kind: 'wallet' | 'rebate_pending') {
  const [row] = await ctx.db
    .select({ balance: accounts.balance })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.kind, kind)));
  return row?.balance ?? 0n;
}
async function inviterOf(userId: number) {
  const [row] = await ctx.db.select({ inviterId: users.inviterId }).from(users).where(eq(users.id, userId));
  return row?.inviterId ?? null;
}
/** A chain top → mid → leaf, each registered with the one before's code (top with the admin's). */
async function chain() {
  const top = await ctx.newUser();
  const mid = await ctx.newUser({ inviteCode: top.inviteCode });
  const leaf = await ctx.newUser({ inviteCode: mid.inviteCode });
  return { top, mid, leaf };
}
async function registrationReward(userId: number) {
  const [row] = await ctx.db
    .select({ postingId: taskCompletions.postingId })
    .from(taskCompletions)
    .where(and(eq(taskCompletions.userId, userId), eq(taskCompletions.taskId, 2)));
  if (!row) throw new Error(`user ${userId} has no registration reward`);
  return row.postingId;
}
/** A fresh admin session: the tests move the clock past a session's 30 days. */
async function adminToken() {
  const res = await ctx.post(`${API}/common/user/login`, {
    username: ctx.admin.username,
    password: ctx.admin.password,
  });
  return res.body.data.token as string;
}
async function adminId() {
  const [row] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.username, ctx.admin.username));
  if (!row) throw new Error('no admin');
  return row.id;
}
const invites = async (token: string) => (await ctx.get(`${API}/user/invite/list`, { token })).body.data;
const release = () => releaseDueRebates(ctx.db, ctx.now());

describe('staff earn nothing', () => {
  it("registering with the admin's invite code succeeds and gives no inviter", async () => {
    const user = await ctx.newUser({ inviteCode: ctx.admin.inviteCode });
    expect(await inviterOf(user.id)).toBeNull();
    expect(await balanceOf(await adminId(), 'wallet')).toBe(0n);
    expect(await balanceOf(await adminId(), 'rebate_pending')).toBe(0n);
  });

  it('crediting an invitee ₹5,00,000 pays the admin inviter nothing', async () => {
    const user = await ctx.newUser({ inviteCode: ctx.admin.inviteCode });
    const admin = await adminToken();
    const held = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: user.id, amount: 500_000, remark: 'compensation' },
      { token: admin },
    );
    expect(held.status).toBe(200);
    const second = await ctx.staff('admin');
    const approved = await ctx.post(
      `${API}/admin/revenue/review`,
      { id: held.body.data.creditRequest.id, action: 'approve', reason: '' },
      { token: second.token },
    );
    expect(approved.status).toBe(200);
    expect(await ctx.balanceOf(user.token)).toBe('500005.00');
    expect(await balanceOf(await adminId(), 'wallet')).toBe(0n);
    expect(await balanceOf(await adminId(), 'rebate_pending')).toBe(0n);
  });

  it("five ₹5,000 compensations to Priya's invitees pay Priya nothing", async () => {
    const priya = await ctx.newUser({ username: 'priya.rebates@example.com' });
    const friends = [];
    for (let i = 0; i < 5; i += 1) friends.push(await ctx.newUser({ inviteCode: priya.inviteCode }));
    const before = {
      wallet: await balanceOf(priya.id, 'wallet'),
      pending: await balanceOf(priya.id, 'rebate_pending'),
    };
    const admin = await adminToken();
    for (const friend of friends) {
      const res = await ctx.post(
        `${API}/admin/revenue/add`,
        { userId: friend.id, amount: 5_000, remark: 'delayed payout' },
        { token: admin },
      );
      expect(res.status).toBe(200);
    }
    // Her own registration reward (₹5); her friends' registration rewards owe her 5 × ₹0.50, pending; the credits owe nothing.
    expect(before).toEqual({ wallet: 500n, pending: 250n });
    expect(await balanceOf(priya.id, 'wallet')).toBe(500n);
    expect(await balanceOf(priya.id, 'rebate_pending')).toBe(250n);
  });

  it('staff get no task reward, no rebate and no invitee later', async () => {
    const { top, mid } = await chain();
    const reviewer = await ctx.staff('reviewer');
    // The survey is task 3 (₹10): a staff member's answer pays nothing.
    const before = await balanceOf(reviewer.id, 'wallet');
    const survey = await ctx.post(
      `${API}/user/survey/submit`,
      { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 },
      { token: reviewer.token },
    );
    expect(survey.status).toBe(200);
    expect(await balanceOf(reviewer.id, 'wallet')).toBe(before);
    const finish = await ctx.post(`${API}/user/task/finish`, { taskId: 3 }, { token: reviewer.token });
    expect(finish.status).not.toBe(200);

    // `mid` is promoted: a new invitee's reward owes mid nothing; top (level 2) is still owed.
    const admin = await adminToken();
    expect(
      (await ctx.control(`${API}/admin/user/role`, { userId: mid.id, role: 'reviewer' }, { token: admin })).status,
    ).toBe(200);
    const pendingBefore = await balanceOf(mid.id, 'rebate_pending');
    const late = await ctx.newUser({ inviteCode: mid.inviteCode });
    expect(await inviterOf(late.id)).toBeNull();
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(pendingBefore);
    // Rebates mid was owed as a user are reversed when their hold ends: staff are paid nothing.
    const midWallet = await balanceOf(mid.id, 'wallet');
    ctx.advance((REBATE_HOLD_DAYS_DEFAULT + 1) * DAY_MS);
    await release();
    expect(await balanceOf(mid.id, 'wallet')).toBe(midWallet);
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(0n);
    expect(await balanceOf(top.id, 'rebate_pending')).toBe(0n);
  });
});

describe('rebates with a hold', () => {
  it('are pending, not withdrawable, until the hold ends, then available', async () => {
    const { top, mid, leaf } = await chain();
    // leaf's registration reward (₹5) owes mid ₹0.50 and top ₹0.25, pending.
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(50n);
    expect((await invites(mid.token)).totals).toMatchObject({ rebateEarned: '0.00', rebatePending: '0.50' });
    expect((await invites(mid.token)).items).toMatchObject([
      { id: leaf.id, rebateEarned: '0.00', rebatePending: '0.50' },
    ]);
    const wallet = await balanceOf(mid.id, 'wallet');
    ctx.advance((REBATE_HOLD_DAYS_DEFAULT - 1) * DAY_MS);
    await release();
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(50n);
    ctx.advance(2 * DAY_MS);
    const released = await release();
    expect(released.released).toBeGreaterThanOrEqual(2);
    expect(await balanceOf(mid.id, 'wallet')).toBe(wallet + 50n);
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(0n);
    expect((await invites(mid.token)).totals).toMatchObject({ rebateEarned: '0.50', rebatePending: '0.00' });
    expect((await invites(top.token)).totals).toMatchObject({ rebateEarned: '0.75', rebatePending: '0.00' });
    // A second run releases nothing twice.
    await release();
    expect(await balanceOf(mid.id, 'wallet')).toBe(wallet + 50n);
    expect(await rebateRuleViolations(ctx.db)).toEqual([]);
  });

  it('the hold is a setting (default in the contract) and withdraw cannot spend pending rebates', async () => {
    const admin = await adminToken();
    expect((await ctx.get(`${API}/admin/rebate/get`, { token: admin })).body.data).toMatchObject({
      holdDays: REBATE_HOLD_DAYS_DEFAULT,
    });
    const bad = await ctx.control(
      `${API}/admin/rebate/set`,
      { level1Bps: 1000, level2Bps: 500, holdDays: 91 },
      { token: admin },
    );
    expect(bad).toMatchObject({ status: 400, body: { key: 'rebate_hold_days_range' } });
    const mid = await ctx.newUser();
    // A big registration reward: ₹2,000 owes mid ₹200 on each invitee.
    expect((await ctx.post(`${API}/admin/task/edit`, { id: 2, reward: 2000 }, { token: admin })).status).toBe(200);
    try {
      await ctx.newUser({ inviteCode: mid.inviteCode });
      expect(await balanceOf(mid.id, 'rebate_pending')).toBe(20_000n);
      const accountId = await bindUpi(ctx, mid.token);
      const refused = await withdraw(ctx, mid.token, { amount: 150, accountId });
      expect(refused).toMatchObject({ status: 409, body: { key: 'insufficient_balance' } });
      expect(await balanceOf(mid.id, 'rebate_pending')).toBe(20_000n);
    } finally {
      expect((await ctx.post(`${API}/admin/task/edit`, { id: 2, reward: 5 }, { token: admin })).status).toBe(200);
    }
    ctx.advance((REBATE_HOLD_DAYS_DEFAULT + 1) * DAY_MS);
    await release();
    const accountId = await bindUpi(ctx, mid.token, 'mid.k@okaxis');
    expect((await withdraw(ctx, mid.token, { amount: 150, accountId })).status).toBe(200);

    const set = await ctx.control(
      `${API}/admin/rebate/set`,
      { level1Bps: 1000, level2Bps: 500, holdDays: 1 },
      { token: admin },
    );
    expect(set.body.data).toEqual({ level1Bps: 1000, level2Bps: 500, holdDays: 1, change: null });
    const other = await ctx.newUser();
    await ctx.newUser({ inviteCode: other.inviteCode });
    ctx.advance(DAY_MS + 60_000);
    await release();
    expect(await balanceOf(other.id, 'rebate_pending')).toBe(0n);
    await ctx.control(
      `${API}/admin/rebate/set`,
      { level1Bps: 1000, level2Bps: 500, holdDays: REBATE_HOLD_DAYS_DEFAULT },
      { token: admin },
    );
  });

  it('are reversed, both levels, when the source reward is reversed', async () => {
    const { top, mid, leaf } = await chain();
    const walletTop = await balanceOf(top.id, 'wallet');
    const walletMid = await balanceOf(mid.id, 'wallet');
    const pendingTop = await balanceOf(top.id, 'rebate_pending');
    const reward = await registrationReward(leaf.id);
    const admin = await adminToken();
    const res = await ctx.post(
      `${API}/admin/task/reward/reverse`,
      { postingId: reward, reason: 'fraud' },
      { token: admin },
    );
    expect(res).toMatchObject({ status: 200, body: { key: 'task_reward_reversed', data: { rebatesReversed: 2 } } });
    expect(await balanceOf(leaf.id, 'wallet')).toBe(0n);
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(0n);
    expect(await balanceOf(top.id, 'rebate_pending')).toBe(pendingTop - 25n);
    const again = await ctx.post(
      `${API}/admin/task/reward/reverse`,
      { postingId: reward, reason: 'fraud' },
      { token: admin },
    );
    expect(again).toMatchObject({ status: 409, body: { key: 'task_reward_reversed_already' } });
    ctx.advance((REBATE_HOLD_DAYS_DEFAULT + 1) * DAY_MS);
    await release();
    expect(await balanceOf(mid.id, 'wallet')).toBe(walletMid);
    // top's own level-1 rebate on mid's registration is released; nothing on leaf's reward.
    expect(await balanceOf(top.id, 'wallet')).toBe(walletTop + 50n);
    expect(await rebateRuleViolations(ctx.db)).toEqual([]);
  });

  it('are reversed, both levels, when the invitee is found to be a duplicate identity', async () => {
    const { top, mid, leaf } = await chain();
    const pendingTop = await balanceOf(top.id, 'rebate_pending');
    const admin = await adminToken();
    const res = await ctx.post(
      `${API}/admin/user/duplicate`,
      { userId: leaf.id, reason: 'same person as #1' },
      { token: admin },
    );
    expect(res).toMatchObject({ status: 200, body: { key: 'user_marked_duplicate', data: { reversed: 2 } } });
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(0n);
    expect(await balanceOf(top.id, 'rebate_pending')).toBe(pendingTop - 25n);
    const reasons = await ctx.db
      .select({ state: rebates.state, reason: rebates.reason })
      .from(rebates)
      .where(eq(rebates.inviteeId, leaf.id));
    expect(reasons).toEqual([
      { state: 'reversed', reason: 'duplicate_identity' },
      { state: 'reversed', reason: 'duplicate_identity' },
    ]);
    // Later rewards of the duplicate owe nothing.
    const survey = await ctx.post(
      `${API}/user/survey/submit`,
      { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 },
      { token: leaf.token },
    );
    expect(survey.status).toBe(200);
    expect(await balanceOf(mid.id, 'rebate_pending')).toBe(0n);
  });

  it('many parallel task claims post each rebate once', async () => {
    const { mid, leaf } = await chain();
    // leaf answers the survey: mid has a friend who completed a task, so task 7 (₹20) is claimable.
    expect(
      (await ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token: leaf.token }))
        .status,
    ).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => ctx.post(`${API}/user/task/finish`, { taskId: 7 }, { token: mid.token })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const key = `task:7:user:${mid.id}`;
    const [keys] = await ctx.db
      .select({ n: count() })
      .from(postings)
      .where(like(postings.idempotencyKey, `${key}:rebate:%`));
    expect(keys?.n).toBe(1); // mid's inviter is the top user: level 1 only (the top registered with the admin's code)
    const reward = await ctx.db.select({ id: postings.id }).from(postings).where(eq(postings.idempotencyKey, key));
    const rows = await ctx.db
      .select({ n: count() })
      .from(rebates)
      .where(eq(rebates.sourcePostingId, reward[0]?.id ?? 0));
    expect(rows[0]?.n).toBe(1);
  });
});

describe('rebateRuleViolations', () => {
  async function forge(userId: number, kind: 'wallet' | 'rebate_pending', amount: bigint, key: string, ref = {}) {
    return ctx.db.transaction((tx) =>
      post(tx, {
        type: 'rebate',
        idempotencyKey: key,
        ref,
        entries: [
          { account: { kind: 'platform_rewards' }, amount: -amount },
          { account: { userId, kind }, amount },
        ],
      }),
    );
  }

  it('names a rebate posted to a staff account', async () => {
    const forged = await forge(await adminId(), 'wallet', 5_000n, 'forged:staff:rebate');
    const found = (await rebateRuleViolations(ctx.db)).filter((v) => v.postingIds.includes(String(forged.postingId)));
    expect(found.map((v) => v.rule)).toContain('rebate_to_staff');
  });

  it('names a rebate with no source, one of a wrong amount and one to the wrong upline', async () => {
    const { top, mid, leaf } = await chain();
    const loose = await forge(mid.id, 'wallet', 700n, 'forged:loose:rebate', { inviteeId: leaf.id, level: 1 });
    // A row and posting of an amount no rate gives on mid's registration reward.
    const wrongAmount = await forge(mid.id, 'rebate_pending', 9_999n, 'forged:amount:rebate');
    await ctx.db.insert(rebates).values({
      sourcePostingId: await registrationReward(mid.id),
      inviteeId: mid.id,
      earnerId: mid.id,
      level: 2,
      bps: 500,
      amount: 9_999n,
      availableAt: new Date(),
      accrualPostingId: wrongAmount.postingId,
    });
    const wrongUpline = await forge(leaf.id, 'rebate_pending', 25n, 'forged:upline:rebate');
    const other = await ctx.newUser();
    const source = await registrationReward(other.id);
    await ctx.db.insert(rebates).values({
      sourcePostingId: source,
      inviteeId: other.id,
      earnerId: leaf.id,
      level: 2,
      bps: 500,
      amount: 25n,
      availableAt: new Date(),
      accrualPostingId: wrongUpline.postingId,
    });
    const violations = await rebateRuleViolations(ctx.db);
    const named = (id: number) => violations.filter((v) => v.postingIds.includes(String(id)));
    expect(named(loose.postingId)).toMatchObject([{ rule: 'rebate_without_source' }]);
    expect(named(wrongAmount.postingId)).toMatchObject([{ rule: 'rebate_without_source' }]);
    expect(named(wrongAmount.postingId)[0]?.detail).toMatch(/owes|upline/);
    expect(named(wrongUpline.postingId)).toMatchObject([{ rule: 'rebate_without_source' }]);
    expect(named(wrongUpline.postingId)[0]?.detail).toContain('not the level-2 upline');
    expect(top.id).toBeGreaterThan(0);
  });
});
