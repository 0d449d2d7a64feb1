import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users, withdrawals } from '../src/db/schema';
import { releaseDueRebates } from '../src/features/referrals';
import { type AccountRef, checkLedger, post } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
const ADMIN = `${API}/admin`;
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

type Row = {
  id: number;
  username: string;
  role: string;
  frozen: boolean;
  balance: string;
  hold: string;
  totalEarned: string;
  totalWithdrawn: string;
  inviteeCount: number;
  inviter: { id: number; username: string } | null;
};

async function list(query: string, token = adminToken) {
  const res = await ctx.get(`${ADMIN}/user/list?${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as { items: Row[]; nextCursor: string | null };
}
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

/**
 * An admin POST with a request id the test chose: the audit row carries the server's own id (the
 * answer's x-request-id) and the test's beside it.
 */
async function adminPost(path: string, body: object, token = adminToken) {
  const clientRequestId = `test-admin-${process.pid}-${++seq}`;
  const res = await ctx.app.inject({
    method: 'POST',
    url: `${ADMIN}${path}`,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'x-request-id': clientRequestId },
  });
  return { status: res.statusCode, body: res.json(), requestId: String(res.headers['x-request-id']), clientRequestId };
}

async function auditOf(target: string) {
  return ctx.db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(desc(auditLog.id));
}

/** Moves money the way the withdrawals feature will: wallet → hold, hold → paid out, hold → back. */
function ledger(userId: number, type: 'withdrawal_hold' | 'withdrawal_paid' | 'withdrawal_refund', paise: bigint) {
  const wallet: AccountRef = { userId, kind: 'wallet' };
  const hold: AccountRef = { userId, kind: 'hold' };
  const sides: Record<typeof type, [AccountRef, AccountRef]> = {
    withdrawal_hold: [wallet, hold],
    withdrawal_paid: [hold, { kind: 'platform_payouts' }],
    withdrawal_refund: [hold, wallet],
  };
  const [from, to] = sides[type];
  return ctx.db.transaction((tx) =>
    post(tx, {
      type,
      idempotencyKey: `test:${type}:${userId}:${++seq}`,
      ref: { withdrawalId: 1 },
      entries: [
        { account: from, amount: -paise },
        { account: to, amount: paise },
      ],
    }),
  );
}

describe('admin/user/list', () => {
  it('shows balance, hold, inviter, invitee count, total earned and total withdrawn of each user', async () => {
    const top = await ctx.newUser();
    const middle = await ctx.newUser({ inviteCode: top.inviteCode });
    await ctx.newUser({ inviteCode: middle.inviteCode });
    // The rebates are held until the invitees' rewards are final (docs/decisions/rebate-hold.md).
    await releaseDueRebates(ctx.db, new Date(ctx.now().getTime() + 8 * 86_400_000));
    expect((await adminPost('/revenue/add', { userId: top.id, amount: '100', remark: 'bonus' })).status).toBe(200);
    await ledger(top.id, 'withdrawal_hold', 3000n);
    await ledger(top.id, 'withdrawal_paid', 2000n);
    await ledger(top.id, 'withdrawal_refund', 500n);
    // The ₹5 still held stands for a withdrawal under review (checkLedger pairs every hold with one).
    await ctx.db.insert(withdrawals).values({
      userId: top.id,
      accountType: 'upi',
      accountNo: 'top@upi',
      accountName: 'Top',
      ifsc: '',
      amount: 500n,
      state: 'pending',
    });

    const [row] = (await list(`q=${top.inviteCode}`)).items;
    // Earned: ₹5 registration + ₹0.50 and ₹0.25 rebates + ₹100 revenue; the refund is not earned.
    expect(row).toMatchObject({
      id: top.id,
      username: top.username,
      inviteCode: top.inviteCode,
      role: 'user',
      frozen: false,
      balance: '80.75',
      hold: '5.00',
      totalEarned: '105.75',
      totalWithdrawn: '20.00',
      inviteeCount: 1,
      // Registered with the admin's code: a staff code gives no inviter (docs/decisions/rebate-hold.md).
      inviter: null,
    });
  });

  it('searches usernames (a phone as typed, any case, % and _ literal) and whole invite codes', async () => {
    const top = await ctx.newUser();
    const a = await ctx.newUser({ inviteCode: top.inviteCode });
    const b = await ctx.newUser({ inviteCode: top.inviteCode });
    const email = await ctx.newUser({ username: `Ops_Desk.${process.pid}${++seq}@Example.com` });
    const digits = a.username.slice(2);

    expect(ids((await list(`q=${encodeURIComponent(`+91 ${digits.slice(0, 5)}-${digits.slice(5)}`)}`)).items)).toEqual([
      a.id,
    ]);
    expect(ids((await list(`q=${digits.slice(3)}`)).items)).toContain(a.id);
    expect(ids((await list(`q=${b.inviteCode.toLowerCase()}`)).items)).toEqual([b.id]);
    expect(ids((await list(`q=${encodeURIComponent(email.username.slice(0, 12).toUpperCase())}`)).items)).toEqual([
      email.id,
    ]);
    expect((await list('q=%25')).items).toEqual([]);
    // As wildcards, `_` would match "ops_desk" from "o_s_desk".
    expect((await list('q=o_s_desk')).items).toEqual([]);
  });

  it('filters by inviter, role, frozen and joined day (India), newest first in keyset pages', async () => {
    const top = await ctx.newUser();
    const a = await ctx.newUser({ inviteCode: top.inviteCode });
    const b = await ctx.newUser({ inviteCode: top.inviteCode });
    const c = await ctx.newUser({ inviteCode: top.inviteCode });
    const under = `inviterId=${top.id}`;

    const first = await list(`${under}&limit=2`);
    expect(ids(first.items)).toEqual([c.id, b.id]);
    const second = await list(`${under}&limit=2&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ items: [{ id: a.id }], nextCursor: null });

    expect((await ctx.control(`${ADMIN}/user/role`, { userId: b.id, role: 'reviewer' })).status).toBe(200);
    expect((await adminPost('/user/freeze', { userId: c.id, frozen: true })).status).toBe(200);
    expect(ids((await list(`${under}&role=reviewer`)).items)).toEqual([b.id]);
    expect(ids((await list(`${under}&frozen=true`)).items)).toEqual([c.id]);
    expect(ids((await list(`${under}&frozen=false`)).items)).toEqual([b.id, a.id]);

    // Midnight in India on 10 June is 18:30 UTC on 9 June.
    await ctx.db
      .update(users)
      .set({ createdAt: new Date('2025-06-09T18:30:00Z') })
      .where(eq(users.id, a.id));
    expect(ids((await list(`${under}&joinedFrom=2025-06-10&joinedTo=2025-06-10`)).items)).toEqual([a.id]);
    expect((await list(`${under}&joinedTo=2025-06-09`)).items).toEqual([]);
    expect(ids((await list(`${under}&joinedTo=2025-06-09T18:30:00.001Z`)).items)).toEqual([a.id]);
  });

  it('refuses a malformed filter or cursor with the field named', async () => {
    for (const [query, field] of [
      ['role=boss', 'role'],
      ['frozen=maybe', 'frozen'],
      ['joinedFrom=yesterday', 'joinedFrom'],
      ['cursor=nonsense', 'cursor'],
    ]) {
      const res = await ctx.get(`${ADMIN}/user/list?${query}`, { token: adminToken });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.fields)).toEqual([field]);
    }
  });
});

describe('admin/user/detail', () => {
  it('shows the newest wallet movements and the invite tree to two levels', async () => {
    const top = await ctx.newUser();
    const a = await ctx.newUser({ inviteCode: top.inviteCode });
    const b = await ctx.newUser({ inviteCode: top.inviteCode });
    const a1 = await ctx.newUser({ inviteCode: a.inviteCode });
    const a2 = await ctx.newUser({ inviteCode: a.inviteCode });
    const b1 = await ctx.newUser({ inviteCode: b.inviteCode });
    await ctx.newUser({ inviteCode: a1.inviteCode });
    await releaseDueRebates(ctx.db, new Date(ctx.now().getTime() + 8 * 86_400_000));

    const res = await ctx.get(`${ADMIN}/user/detail?id=${top.id}`, { token: adminToken });
    expect(res.status).toBe(200);
    const { user, movements, inviteTree } = res.body.data;
    expect(user).toMatchObject({ id: top.id, inviteeCount: 2, balance: '6.75' });
    expect(movements).toHaveLength(6);
    expect(movements[0]).toMatchObject({ type: 'rebate', amount: '0.25', ref: { inviteeId: b1.id, level: 2 } });
    expect(movements[5]).toMatchObject({ type: 'task_reward', amount: '5.00', ref: { taskId: 2 } });
    expect(inviteTree.count).toBe(2);
    expect(inviteTree.items).toMatchObject([
      { id: b.id, inviteeCount: 1, invitees: [{ id: b1.id, inviteeCount: 0 }] },
      {
        id: a.id,
        inviteeCount: 2,
        invitees: [
          { id: a2.id, inviteeCount: 0 },
          { id: a1.id, inviteeCount: 1 },
        ],
      },
    ]);
    expect(inviteTree.items[1].invitees[1]).not.toHaveProperty('invitees');
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await ctx.get(`${ADMIN}/user/detail?id=99999999`, { token: adminToken });
    expect(res.status).toBe(404);
    expect(res.body.key).toBe('user_not_found');
  });
});

describe('admin/user/freeze', () => {
  it('freezes and unfreezes, auditing before, after and the request id; a frozen user still logs in', async () => {
    const user = await ctx.newUser();
    const frozen = await adminPost('/user/freeze', { userId: user.id, frozen: true });
    expect(frozen.status).toBe(200);
    expect(frozen.body.data).toMatchObject({ id: user.id, frozen: true });
    const [admin] = (await list(`q=${ctx.admin.username}`)).items;
    expect((await auditOf(`user:${user.id}`))[0]).toMatchObject({
      actorId: admin?.id,
      action: 'user.freeze',
      before: { frozen: false },
      after: { frozen: true },
      requestId: frozen.requestId,
      clientRequestId: frozen.clientRequestId,
    });

    const login = await ctx.post(`${API}/common/user/login`, { username: user.username, password: user.password });
    expect(login.status).toBe(200);
    expect((await ctx.get(`${API}/user/user/detail`, { token: login.body.data.token })).status).toBe(200);

    const thawed = await adminPost('/user/freeze', { userId: user.id, frozen: false });
    expect(thawed.body.data.frozen).toBe(false);
    expect((await auditOf(`user:${user.id}`))[0]).toMatchObject({ before: { frozen: true }, after: { frozen: false } });
  });

  it("refuses an admin's own account and an unknown user, writing no audit row", async () => {
    const [admin] = (await list(`q=${ctx.admin.username}`)).items;
    const own = await adminPost('/user/freeze', { userId: admin?.id, frozen: true });
    expect(own.status).toBe(409);
    expect(own.body.key).toBe('cannot_change_own_account');
    expect(await auditOf(`user:${admin?.id}`)).toEqual([]);
    expect((await adminPost('/user/freeze', { userId: 99999999, frozen: true })).body.key).toBe('user_not_found');
  });
});

describe('admin/user/role', () => {
  it('makes a reviewer, who then reads the admin views but cannot act', async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const res = await ctx.control(`${ADMIN}/user/role`, { userId: user.id, role: 'reviewer' });
    expect(res.body.data).toMatchObject({ id: user.id, role: 'reviewer' });
    expect((await auditOf(`user:${user.id}`)).find((row) => row.action === 'user.role')).toMatchObject({
      action: 'user.role',
      before: { role: 'user' },
      after: { role: 'reviewer' },
    });
    expect(ids((await list(`q=${other.inviteCode}`, user.token)).items)).toEqual([other.id]);
    const act = await adminPost('/user/freeze', { userId: other.id, frozen: true }, user.token);
    expect(act.status).toBe(403);
  });

  it('refuses changing one’s own role', async () => {
    const [admin] = (await list(`q=${ctx.admin.username}`)).items;
    const res = await adminPost('/user/role', { userId: admin?.id, role: 'user' });
    expect(res.body.key).toBe('cannot_change_own_account');
  });

  it('lets only one of two admins applying each other’s demotion at once win, so an admin remains', async () => {
    const a = await ctx.newUser();
    const b = await ctx.newUser();
    for (const u of [a, b])
      expect((await ctx.control(`${ADMIN}/user/role`, { userId: u.id, role: 'admin' })).status).toBe(200);
    // Proposed by a third admin: the two were promoted on the bootstrap admin's proposals.
    const third = (await ctx.coAdmin()).token;
    const demote = async (u: { id: number }) =>
      (await adminPost('/user/role', { userId: u.id, role: 'user' }, third)).body.data.change.id as number;
    const [ofA, ofB] = [await demote(a), await demote(b)];

    const results = await Promise.all([
      adminPost('/control/apply', { id: ofB }, a.token),
      adminPost('/control/apply', { id: ofA }, b.token),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    const [rowA] = (await list(`q=${a.inviteCode}`)).items;
    const [rowB] = (await list(`q=${b.inviteCode}`)).items;
    expect([rowA?.role, rowB?.role].sort()).toEqual(['admin', 'user']);
  });
});

describe('admin/user/resetpass', () => {
  it('sets the password and ends every session; the audit row never holds the password', async () => {
    const user = await ctx.newUser();
    const second = await ctx.post(`${API}/common/user/login`, { username: user.username, password: user.password });
    const res = await adminPost('/user/resetpass', { userId: user.id, password: 'fresh-pass-42' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'user_password_reset', data: { sessionsEnded: 2 } });

    for (const token of [user.token, second.body.data.token]) {
      expect((await ctx.get(`${API}/user/user/detail`, { token })).status).toBe(401);
    }
    const old = await ctx.post(`${API}/common/user/login`, { username: user.username, password: user.password });
    expect(old.body.key).toBe('incorrect_username_or_password');
    const fresh = await ctx.post(`${API}/common/user/login`, { username: user.username, password: 'fresh-pass-42' });
    expect(fresh.status).toBe(200);

    const [row] = await auditOf(`user:${user.id}`);
    expect(row).toMatchObject({ action: 'user.resetpass', after: { sessionsEnded: 2 }, requestId: res.requestId });
    expect(JSON.stringify(row)).not.toContain('fresh-pass-42');
  });

  it('checks the password rules and refuses the admin’s own account', async () => {
    const user = await ctx.newUser();
    const short = await adminPost('/user/resetpass', { userId: user.id, password: '123' });
    expect(short.body).toMatchObject({ code: 400, key: 'password_length' });
    const [admin] = (await list(`q=${ctx.admin.username}`)).items;
    const own = await adminPost('/user/resetpass', { userId: admin?.id, password: 'another-42' });
    expect(own.body.key).toBe('cannot_change_own_account');
  });
});
