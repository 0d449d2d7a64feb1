import { randomUUID } from 'node:crypto';
import type { AdminWithdrawalItem } from '@kamai/contract';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clientSignals, creditRequests, jobs, postings, withdrawals } from '../src/db/schema';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { API, withdraw } from './payout-helpers';

let ctx: TestContext;
let ipSeq = 0;
let adminId: number;

beforeAll(async () => {
  // Without a required invite code a user can have no inviter: each test builds its own invite tree.
  ctx = await createTestContext({ INVITE_CODE_REQUIRED: 'false' });
  // Small amounts keep the tests' wallets small: ₹1 minimum.
  await setSettings({ withdrawal: { min: 1 } });
  adminId = (await ctx.get(`${API}/user/user/detail`, { token: await ctx.adminToken() })).body.data.id;
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** An IPv4 address no other registration of this file uses. */
const freshIp = () => {
  ipSeq += 1;
  return `198.51.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
};

async function setSettings(body: Record<string, unknown>) {
  const res = await ctx.control(`${API}/admin/settings/set`, body, { token: await ctx.adminToken() });
  expect(res.status).toBe(200);
  return res.body.data;
}

interface Client {
  ip?: string;
  device?: string | null;
  agent?: string;
}

/** Registers through the API from the given address and device (fresh ones unless given). */
async function register(input: { inviteCode?: string; username?: string } & Client = {}) {
  const ip = input.ip ?? freshIp();
  const device = input.device === undefined ? randomUUID() : input.device;
  const headers: Record<string, string> = { 'user-agent': input.agent ?? 'Mozilla/5.0 (Linux; Android 14) Test' };
  if (device !== null) headers['x-device-id'] = device;
  const typed = input.username ?? ctx.uniquePhone();
  const username = typed.includes('@') ? typed.toLowerCase() : `91${typed.slice(-10)}`;
  expect((await ctx.post(`${API}/common/otp/send`, { target: typed, type: 1 }, { ip })).status).toBe(200);
  const res = await ctx.post(
    `${API}/common/user/register`,
    {
      username: typed,
      password: 'secret123',
      password2: 'secret123',
      verifyCode: await ctx.lastCode(username),
      inviteCode: input.inviteCode ?? '',
    },
    { ip, headers },
  );
  if (res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  const token = res.body.data.token as string;
  const detail = (await ctx.get(`${API}/user/user/detail`, { token })).body.data;
  return { token, username, id: detail.id as number, inviteCode: detail.inviteCode as string, ip, device };
}

async function login(username: string, client: Client & { headers?: Record<string, string> }) {
  const headers: Record<string, string> = { ...client.headers };
  if (client.device) headers['x-device-id'] = client.device;
  if (client.agent) headers['user-agent'] = client.agent;
  return ctx.post(`${API}/common/user/login`, { username, password: 'secret123' }, { ip: client.ip, headers });
}

async function fund(userId: number, rupees: number | string) {
  const res = await ctx.post(
    `${API}/admin/revenue/add`,
    { userId, amount: rupees, remark: 'fraud test' },
    { token: await ctx.adminToken() },
  );
  expect(res.status).toBe(200);
}

async function bind(token: string, account: { accountNo: string; accountType?: 'upi' | 'bank'; ifsc?: string }) {
  const res = await ctx.post(`${API}/user/wdaccount/bind`, { accountName: 'Asha Kumari', ...account }, { token });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

const uniqueUpi = () => `u${randomUUID().slice(0, 12)}@okaxis`;

/** Asks for a withdrawal of `rupees` and answers the console's view of it. */
async function requestAndView(token: string, rupees: number | string): Promise<AdminWithdrawalItem> {
  const res = await withdraw(ctx, token, { amount: rupees });
  expect(res.status).toBe(200);
  return adminItem(res.body.data.id);
}

async function adminItem(id: number, token?: string): Promise<AdminWithdrawalItem> {
  const [row] = await ctx.db.select({ userId: withdrawals.userId }).from(withdrawals).where(eq(withdrawals.id, id));
  const list = await ctx.get(`${API}/admin/withdraw/list?userId=${row?.userId}&limit=100`, {
    token: token ?? (await ctx.adminToken()),
  });
  expect(list.status).toBe(200);
  const item = (list.body.data.items as AdminWithdrawalItem[]).find((i) => i.id === id);
  if (!item) throw new Error(`withdrawal ${id} is not in the console's list`);
  return item;
}

/** A user with no inviter, a unique UPI id and `rupees` of revenue credited. */
async function funded(rupees: number, client: Client & { inviteCode?: string } = {}) {
  const user = await register(client);
  await bind(user.token, { accountNo: uniqueUpi() });
  await fund(user.id, rupees);
  return user;
}

describe('client records at registration and login', () => {
  it('keeps the address, the User-Agent and a well-formed device id; ignores a malformed one', async () => {
    const device = randomUUID();
    const user = await register({ ip: '203.0.113.9', device, agent: 'KamaiTest/1.0' });
    expect((await login(user.username, { ip: '2001:db8:5:6::17', device, agent: 'KamaiTest/2.0' })).status).toBe(200);
    const junk = await login(user.username, {
      ip: '203.0.113.10',
      headers: { 'x-device-id': '<script>alert(1)</script>' },
    });
    expect(junk.status).toBe(200);
    const tooShort = await login(user.username, {
      ip: '203.0.113.11',
      headers: { 'x-device-id': 'abc', 'user-agent': 'x'.repeat(1000) },
    });
    expect(tooShort.status).toBe(200);

    const rows = await ctx.db
      .select()
      .from(clientSignals)
      .where(eq(clientSignals.userId, user.id))
      .orderBy(clientSignals.id);
    expect(rows.map((r) => [r.kind, r.ip, r.addressKey, r.userAgent, r.deviceId])).toEqual([
      ['register', '203.0.113.9', '203.0.113.9', 'KamaiTest/1.0', device],
      ['login', '2001:db8:5:6::17', '2001:db8:5:6::/64', 'KamaiTest/2.0', device],
      ['login', '203.0.113.10', '203.0.113.10', 'lightMyRequest', null],
      ['login', '203.0.113.11', '203.0.113.11', 'x'.repeat(300), null],
    ]);
    // A failed login records nothing.
    const wrong = await ctx.post(
      `${API}/common/user/login`,
      { username: user.username, password: 'wrong-password' },
      { ip: '203.0.113.12' },
    );
    expect(wrong.status).toBe(400);
    const [after] = await ctx.db.select({ n: count() }).from(clientSignals).where(eq(clientSignals.userId, user.id));
    expect(after?.n).toBe(4);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, and records the forwarded address when it is', async () => {
    const spoofed = await register({ ip: '203.0.113.20' });
    await login(spoofed.username, { ip: '203.0.113.20', headers: { 'x-forwarded-for': '192.0.2.99' } });
    const ips = await ctx.db
      .select({ ip: clientSignals.ip })
      .from(clientSignals)
      .where(eq(clientSignals.userId, spoofed.id));
    expect(ips.map((r) => r.ip)).toEqual(['203.0.113.20', '203.0.113.20']);

    const behindProxy = await createTestContext({ TRUST_PROXY: 'true' });
    try {
      const user = await behindProxy.registerUser();
      const res = await behindProxy.post(
        `${API}/common/user/login`,
        { username: user.username, password: user.password },
        { ip: '10.0.0.2', headers: { 'x-forwarded-for': '192.0.2.44', 'x-device-id': 'b'.repeat(32) } },
      );
      expect(res.status).toBe(200);
      const [row] = await behindProxy.db
        .select()
        .from(clientSignals)
        .where(eq(clientSignals.kind, 'login'))
        .orderBy(clientSignals.id);
      expect(row).toMatchObject({ ip: '192.0.2.44', addressKey: '192.0.2.44', deviceId: 'b'.repeat(32) });
    } finally {
      await behindProxy.close();
    }
  });
});

describe('risk signals on withdraw/add', () => {
  it('flags a first withdrawal within hours of registering, and not a later one', async () => {
    const user = await funded(500);
    const first = await requestAndView(user.token, 10);
    expect(first.risk.reasons).toEqual(['risk_quick_first_withdrawal']);
    expect(first.risk.score).toBe(15);
    const second = await requestAndView(user.token, 10);
    expect(second.risk).toEqual({ score: 0, reasons: [] });
  });

  it('scores a parallel burst like the same requests one after another: one first withdrawal', async () => {
    // The facts are read under the wallet's lock, in the statement that writes the withdrawal: of three
    // requests sent at once (the daily count allows three), exactly one is the first.
    const user = await funded(500);
    const answers = await Promise.all([1, 2, 3].map(() => withdraw(ctx, user.token, { amount: 10 })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const items = await Promise.all(answers.map((a) => adminItem(a.body.data.id)));
    const flagged = items.filter((i) => i.risk.reasons.includes('risk_quick_first_withdrawal'));
    expect(flagged).toHaveLength(1);
    expect(flagged[0]?.id).toBe(Math.min(...items.map((i) => i.id)));
    expect(items.map((i) => i.risk.score).sort((a, b) => a - b)).toEqual([0, 0, 15]);
  });

  it('flags a payout account (UPI id, or bank number + IFSC) that another user saved too', async () => {
    const upi = uniqueUpi();
    const a = await funded(500);
    const b = await funded(500);
    await bind(a.token, { accountNo: upi });
    await bind(b.token, { accountNo: upi.toUpperCase() });
    expect((await requestAndView(b.token, 10)).risk.reasons).toContain('risk_shared_payout_account');

    // Bank: the same number at another branch is another account; at the same branch it is shared.
    const number = String(Date.now()).slice(-12);
    const c = await funded(500);
    const d = await funded(500);
    await bind(c.token, { accountType: 'bank', accountNo: number, ifsc: 'SBIN0001234' });
    const dAccount = await bind(d.token, { accountType: 'bank', accountNo: number, ifsc: 'HDFC0004321' });
    const dItem = await requestAndView(d.token, 10);
    expect(dItem.risk.reasons).not.toContain('risk_shared_payout_account');
    const e = await funded(500);
    await bind(e.token, { accountType: 'bank', accountNo: number, ifsc: 'sbin0001234' });
    expect((await requestAndView(e.token, 10)).risk.reasons).toContain('risk_shared_payout_account');

    // Deleting the account does not hide it: the earlier withdrawal's copy still counts.
    const admin = await ctx.adminToken();
    await ctx.post(`${API}/admin/withdraw/review`, { id: dItem.id, action: 'reject', reason: 'x' }, { token: admin });
    expect((await ctx.post(`${API}/user/wdaccount/delete`, { id: dAccount }, { token: d.token })).status).toBe(200);
    const f = await funded(500);
    await bind(f.token, { accountType: 'bank', accountNo: number, ifsc: 'HDFC0004321' });
    expect((await requestAndView(f.token, 10)).risk.reasons).toContain('risk_shared_payout_account');
  });

  it("flags an invitee registered from its inviter's device or address, for both of them", async () => {
    const inviter = await funded(500);
    const device = await register({ inviteCode: inviter.inviteCode, device: inviter.device });
    await bind(device.token, { accountNo: uniqueUpi() });
    await fund(device.id, 100);
    const seen = await requestAndView(device.token, 10);
    expect(seen.risk.reasons).toContain('risk_same_device_as_inviter');
    expect(seen.risk.reasons).not.toContain('risk_same_address_as_inviter');

    // The inviter's later login address counts too.
    const other = await funded(500);
    expect((await login(other.username, { ip: '203.0.113.77', device: other.device })).status).toBe(200);
    const address = await register({ inviteCode: other.inviteCode, ip: '203.0.113.77' });
    await bind(address.token, { accountNo: uniqueUpi() });
    await fund(address.id, 100);
    const byAddress = await requestAndView(address.token, 10);
    expect(byAddress.risk.reasons).toContain('risk_same_address_as_inviter');
    expect(byAddress.risk.reasons).not.toContain('risk_same_device_as_inviter');

    // The inviter who farms its own invite code is flagged when it withdraws.
    expect((await requestAndView(inviter.token, 10)).risk.reasons).toContain('risk_same_device_as_inviter');
    const clean = await funded(500);
    await register({ inviteCode: clean.inviteCode });
    const cleanItem = await requestAndView(clean.token, 10);
    expect(cleanItem.risk.reasons).not.toContain('risk_same_device_as_inviter');
    expect(cleanItem.risk.reasons).not.toContain('risk_same_address_as_inviter');
  });

  it('flags invitees of one inviter that share a device or an address (IPv6 by /64)', async () => {
    const inviter = await funded(500);
    const shared = randomUUID();
    const one = await register({ inviteCode: inviter.inviteCode, device: shared, ip: '2001:db8:77:1::a' });
    const two = await register({ inviteCode: inviter.inviteCode, device: shared, ip: '2001:db8:77:1::b' });
    await bind(two.token, { accountNo: uniqueUpi() });
    await fund(two.id, 100);
    const item = await requestAndView(two.token, 10);
    expect(item.risk.reasons).toEqual(
      expect.arrayContaining(['risk_same_device_as_fellow_invitee', 'risk_same_address_as_fellow_invitee']),
    );
    expect(item.risk.reasons).not.toContain('risk_same_device_as_inviter');
    // Their inviter, withdrawing, sees the same about its own invitees.
    expect((await requestAndView(inviter.token, 10)).risk.reasons).toEqual(
      expect.arrayContaining(['risk_same_device_as_fellow_invitee', 'risk_same_address_as_fellow_invitee']),
    );
    // Another /64 is another address.
    const three = await register({ inviteCode: one.inviteCode, ip: '2001:db8:77:1::c' });
    const four = await register({ inviteCode: one.inviteCode, ip: '2001:db8:78:1::c' });
    await bind(four.token, { accountNo: uniqueUpi() });
    await fund(four.id, 100);
    expect((await requestAndView(four.token, 10)).risk.reasons).not.toContain('risk_same_address_as_fellow_invitee');
    expect(three.id).toBeGreaterThan(0);
  });

  it('flags invitees who did nothing but register, from the configured count', async () => {
    const inviter = await funded(500);
    const idle = await register({ inviteCode: inviter.inviteCode });
    const active = await register({ inviteCode: inviter.inviteCode });
    await ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token: active.token });
    expect((await requestAndView(inviter.token, 10)).risk.reasons).not.toContain('risk_idle_invitees');
    await register({ inviteCode: inviter.inviteCode });
    expect((await requestAndView(inviter.token, 10)).risk.reasons).toContain('risk_idle_invitees');
    await setSettings({ risk: { idleInvitees: 3 } });
    try {
      expect((await requestAndView(inviter.token, 10)).risk.reasons).not.toContain('risk_idle_invitees');
    } finally {
      await setSettings({ risk: { idleInvitees: 2 } });
    }
    expect(idle.id).toBeGreaterThan(0);
  });

  it('flags a balance mostly from invite rewards', async () => {
    const farmer = await register();
    await bind(farmer.token, { accountNo: uniqueUpi() });
    const friend = await register({ inviteCode: farmer.inviteCode });
    await ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token: friend.token });
    // Task 7 (invite one friend) pays ₹20 on top of ₹5 for registering and the friend's rebates.
    const claimed = await ctx.post(`${API}/user/task/finish`, { taskId: 7 }, { token: farmer.token });
    expect(claimed.status).toBe(200);
    expect((await requestAndView(farmer.token, 10)).risk.reasons).toContain('risk_invite_reward_balance');

    const earner = await funded(500, { inviteCode: undefined });
    const earnerFriend = await register({ inviteCode: earner.inviteCode });
    await ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token: earnerFriend.token });
    expect((await ctx.post(`${API}/user/task/finish`, { taskId: 7 }, { token: earner.token })).status).toBe(200);
    expect((await requestAndView(earner.token, 10)).risk.reasons).not.toContain('risk_invite_reward_balance');
  });

  it('scores by the weights in the settings; a weight of 0 turns a signal off', async () => {
    const upi = uniqueUpi();
    const a = await funded(500);
    await bind(a.token, { accountNo: upi });
    const b = await funded(500);
    await bind(b.token, { accountNo: upi });
    const before = await requestAndView(b.token, 10);
    expect(before.risk).toEqual({ score: 55, reasons: ['risk_shared_payout_account', 'risk_quick_first_withdrawal'] });

    const settings = await setSettings({ risk: { weights: { shared_payout_account: 70, quick_first_withdrawal: 0 } } });
    try {
      expect(settings.risk.weights).toMatchObject({ shared_payout_account: 70, quick_first_withdrawal: 0 });
      const c = await funded(500);
      await bind(c.token, { accountNo: upi });
      expect((await requestAndView(c.token, 10)).risk).toEqual({ score: 70, reasons: ['risk_shared_payout_account'] });
      // Scores already given stay as they were.
      expect((await adminItem(before.id)).risk.score).toBe(55);
    } finally {
      await setSettings({ risk: { weights: { shared_payout_account: 40, quick_first_withdrawal: 15 } } });
    }
    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.set'), eq(auditLog.target, 'setting:risk')));
    expect(audit.length).toBeGreaterThanOrEqual(2);

    for (const bad of [
      { weights: { shared_payout_account: 101 } },
      { weights: { shared_payout_account: -1 } },
      { qualifiedInvite: 'never' },
    ]) {
      const res = await ctx.control(`${API}/admin/settings/set`, { risk: bad }, { token: await ctx.adminToken() });
      expect(res.status).toBe(400);
    }
    const reviewer = await ctx.staff('reviewer');
    expect(
      (await ctx.control(`${API}/admin/settings/set`, { risk: { idleInvitees: 5 } }, { token: reviewer.token })).status,
    ).toBe(403);
  });

  it('lets the queue filter by minimum score and by reason, and sort by score across pages', async () => {
    const upi = uniqueUpi();
    const a = await funded(500);
    await bind(a.token, { accountNo: upi });
    const b = await funded(500);
    await bind(b.token, { accountNo: upi });
    const risky = await requestAndView(b.token, 10);
    const calm = await funded(500);
    await requestAndView(calm.token, 10); // first withdrawal: 15
    const calmer = await requestAndView(calm.token, 10); // 0
    const token = await ctx.adminToken();

    const shared = await ctx.get(`${API}/admin/withdraw/list?reason=risk_shared_payout_account&limit=100`, { token });
    const sharedItems = shared.body.data.items as AdminWithdrawalItem[];
    expect(sharedItems.map((i) => i.id)).toContain(risky.id);
    expect(sharedItems.every((i) => i.risk.reasons.includes('risk_shared_payout_account'))).toBe(true);

    const high = await ctx.get(`${API}/admin/withdraw/list?minRisk=50&limit=100`, { token });
    const highItems = high.body.data.items as AdminWithdrawalItem[];
    expect(highItems.map((i) => i.id)).toContain(risky.id);
    expect(highItems.map((i) => i.id)).not.toContain(calmer.id);
    expect(highItems.every((i) => i.risk.score >= 50)).toBe(true);

    const seen: AdminWithdrawalItem[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { items: AdminWithdrawalItem[]; nextCursor: string | null } } } = await ctx.get(
        `${API}/admin/withdraw/list?sort=risk&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      seen.push(...page.body.data.items);
      cursor = page.body.data.nextCursor;
    } while (cursor);
    const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(withdrawals);
    expect(seen).toHaveLength(n);
    expect(new Set(seen.map((i) => i.id)).size).toBe(n);
    for (let i = 1; i < seen.length; i++) {
      const prev = seen[i - 1] as AdminWithdrawalItem;
      const cur = seen[i] as AdminWithdrawalItem;
      expect(prev.risk.score > cur.risk.score || (prev.risk.score === cur.risk.score && prev.id > cur.id)).toBe(true);
    }
    for (const bad of ['minRisk=-1', 'reason=risk_unknown', 'sort=score']) {
      expect((await ctx.get(`${API}/admin/withdraw/list?${bad}`, { token })).status).toBe(400);
    }
  });
});

describe('four-eyes withdrawals', () => {
  const approve = (id: number, token: string) =>
    ctx.post(`${API}/admin/withdraw/review`, { id, action: 'approve', reason: '' }, { token });
  const dispatchJobs = async (id: number) => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payout:dispatch:${id}`));
    return row?.n ?? 0;
  };

  beforeAll(async () => {
    await setSettings({ risk: { secondApprovalAbove: '150' } });
  });
  afterAll(async () => {
    await setSettings({ risk: { secondApprovalAbove: '10000' } });
  });

  it('needs one approval up to the threshold and two different reviewers above it', async () => {
    const user = await funded(1000);
    const small = await requestAndView(user.token, 150);
    expect(small.approvals).toEqual({ required: 1, first: null });
    const admin = await ctx.adminToken();
    expect((await approve(small.id, admin)).body.data.state).toBe('approved');
    expect(await dispatchJobs(small.id)).toBe(1);

    const big = await requestAndView(user.token, '150.01');
    expect(big.approvals).toEqual({ required: 2, first: null });
    const first = await approve(big.id, admin);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      state: 'pending',
      approvals: { required: 2, first: { reviewerId: adminId } },
    });
    expect(await dispatchJobs(big.id)).toBe(0);

    const again = await approve(big.id, admin);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      key: 'second_approver_required',
      message: 'A second, different staff member must approve this',
    });
    const hindi = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id: big.id, action: 'approve' },
      { token: admin, lang: 'hi_IN' },
    );
    expect(hindi.body.message).toBe('इसे किसी दूसरे, अलग स्टाफ़ सदस्य की मंज़ूरी चाहिए');

    const reviewer = await ctx.staff('reviewer');
    const second = await approve(big.id, reviewer.token);
    expect(second.status).toBe(200);
    expect(second.body.data.state).toBe('approved');
    expect(await dispatchJobs(big.id)).toBe(1);

    const audits = await ctx.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(eq(auditLog.target, `withdrawal:${big.id}`))
      .orderBy(auditLog.id);
    expect(audits).toEqual([
      { action: 'withdrawal.approve_first', actorId: adminId },
      { action: 'withdrawal.approve', actorId: reviewer.id },
    ]);
  });

  it('keeps the number of approvals a withdrawal was requested with, and lets one reviewer reject', async () => {
    const user = await funded(1000);
    const start = await ctx.balanceOf(user.token);
    const big = await requestAndView(user.token, 200);
    await setSettings({ risk: { secondApprovalAbove: '1000' } });
    try {
      expect((await approve(big.id, await ctx.adminToken())).body.data.state).toBe('pending');
    } finally {
      await setSettings({ risk: { secondApprovalAbove: '150' } });
    }
    const reviewer = await ctx.staff('reviewer');
    const rejected = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id: big.id, action: 'reject', reason: 'Shared payout account' },
      { token: reviewer.token },
    );
    expect(rejected.body.data.state).toBe('rejected');
    expect(await ctx.balanceOf(user.token)).toBe(start);
  });

  it('records one first approval out of 20 parallel ones by the same reviewer, and dispatches nothing', async () => {
    const user = await funded(1000);
    const big = await requestAndView(user.token, 300);
    const admin = await ctx.adminToken();
    const results = await Promise.all(Array.from({ length: 20 }, () => approve(big.id, admin)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.key === 'second_approver_required')).toHaveLength(19);
    expect(await dispatchJobs(big.id)).toBe(0);
    const [row] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, big.id));
    expect(row).toMatchObject({ state: 'pending', firstApproverId: adminId });
  });

  it('dispatches exactly once when two reviewers approve ten times each in parallel', async () => {
    const user = await funded(1000);
    const big = await requestAndView(user.token, 400);
    const one = await ctx.staff('reviewer');
    const two = await ctx.staff('reviewer');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => approve(big.id, i % 2 === 0 ? one.token : two.token)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(18);
    expect(await dispatchJobs(big.id)).toBe(1);
    const [row] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, big.id));
    expect(row?.state === 'approved' || row?.state === 'processing' || row?.state === 'paid').toBe(true);
    expect([one.id, two.id]).toContain(row?.firstApproverId);
    expect(row?.reviewerId).not.toBe(row?.firstApproverId);
    const [history] = await ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.target, `withdrawal:${big.id}`));
    expect(history?.n).toBe(2);
  });
});

describe('admin/revenue/add', () => {
  const credit = async (token: string, userId: number, amount: string | number) =>
    ctx.post(`${API}/admin/revenue/add`, { userId, amount, remark: 'bonus' }, { token });
  const decide = (token: string, id: number, action: 'approve' | 'reject', reason = '') =>
    ctx.post(`${API}/admin/revenue/review`, { id, action, reason }, { token });

  it('refuses crediting oneself with 409 and writes nothing', async () => {
    const admin = await ctx.adminToken();
    const [before] = await ctx.db.select({ n: count() }).from(postings);
    const res = await credit(admin, adminId, 100);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ key: 'cannot_credit_self', message: 'You cannot credit your own account' });
    const [after] = await ctx.db.select({ n: count() }).from(postings);
    expect(after?.n).toBe(before?.n);
    const audits = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${adminId}`));
    expect(audits.filter((a) => a.action.startsWith('revenue.'))).toEqual([]);
  });

  it('holds a credit above ₹10,000 for a second admin, who posts it once', async () => {
    const user = await register();
    const start = await ctx.balanceOf(user.token);
    const admin = await ctx.adminToken();
    expect((await credit(admin, user.id, '10000')).body.data).toMatchObject({
      postingId: expect.any(Number),
      creditRequest: null,
    });
    const held = await credit(admin, user.id, '10000.01');
    expect(held.status).toBe(200);
    expect(held.body.data).toMatchObject({ postingId: null, creditRequest: { state: 'pending' } });
    const id = held.body.data.creditRequest.id as number;
    expect(await ctx.balanceOf(user.token)).toBe((Number(start) + 10_000).toFixed(2));

    const pending = await ctx.get(`${API}/admin/revenue/requests?state=pending`, { token: admin });
    expect(pending.body.data.items).toContainEqual(
      expect.objectContaining({ id, userId: user.id, amount: '10000.01', requestedBy: adminId, state: 'pending' }),
    );

    const self = await decide(admin, id, 'approve');
    expect(self).toMatchObject({ status: 409, body: { key: 'second_approver_required' } });
    const reviewer = await ctx.staff('reviewer');
    expect((await decide(reviewer.token, id, 'approve')).status).toBe(403);

    const second = await ctx.staff('admin');
    const third = await ctx.staff('admin');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => decide(i % 2 ? second.token : third.token, id, 'approve')),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.key === 'credit_request_decided')).toHaveLength(9);
    expect(await ctx.balanceOf(user.token)).toBe((Number(start) + 20_000.01).toFixed(2));
    const [posted] = await ctx.db
      .select({ n: count() })
      .from(postings)
      .where(eq(postings.idempotencyKey, `revenue:request:${id}`));
    expect(posted?.n).toBe(1);
    const [row] = await ctx.db.select().from(creditRequests).where(eq(creditRequests.id, id));
    expect(row).toMatchObject({ state: 'approved', postingId: expect.any(Number) });
    expect([second.id, third.id]).toContain(row?.decidedBy);
    const audits = await ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.target, `user:${user.id}`), like(auditLog.action, 'revenue.%')))
      .orderBy(auditLog.id);
    expect(audits.map((a) => a.action)).toEqual(['revenue.add', 'revenue.request', 'revenue.approve']);
  });

  it('lets a second admin reject a held credit with a reason, and never approve one to themselves', async () => {
    const admin = await ctx.adminToken();
    const second = await ctx.staff('admin');
    const user = await register();
    const start = await ctx.balanceOf(user.token);
    const held = (await credit(admin, user.id, 20_000)).body.data.creditRequest.id as number;
    expect((await decide(second.token, held, 'reject')).body.key).toBe('enter_reject_reason');
    const rejected = await decide(second.token, held, 'reject', 'No such campaign');
    expect(rejected.body.data).toMatchObject({ state: 'rejected', reason: 'No such campaign', postingId: null });
    expect(await ctx.balanceOf(user.token)).toBe(start);
    expect((await decide(admin, held, 'approve')).body.key).toBe('credit_request_decided');

    const toSecond = (await credit(admin, second.id, 20_000)).body.data.creditRequest.id as number;
    expect((await decide(second.token, toSecond, 'approve')).body.key).toBe('cannot_credit_self');
    expect((await decide(second.token, 99_999_999, 'approve')).status).toBe(404);
  });
});

describe('qualified invites', () => {
  const inviteTask = async (token: string) => {
    const list = await ctx.get(`${API}/user/task/list`, { token });
    const all = list.body.data.sections.flatMap((s: { items: { id: number }[] }) => s.items);
    return all.find((t: { id: number }) => t.id === 8) as { progress: number };
  };
  const totals = async (token: string) =>
    (await ctx.get(`${API}/user/invite/list`, { token })).body.data.totals.qualified;

  it('counts friends on registration, a verified phone or a first task, as the setting says', async () => {
    const inviter = await register();
    const byPhone = await register({ inviteCode: inviter.inviteCode });
    const byEmail = await register({ inviteCode: inviter.inviteCode, username: `q${Date.now()}@example.com` });
    const settings = await ctx.get(`${API}/admin/settings/get`, { token: await ctx.adminToken() });
    expect(settings.body.data.risk.qualifiedInvite).toBe('first_task');

    expect(await inviteTask(inviter.token)).toMatchObject({ progress: 0 });
    expect(await totals(inviter.token)).toBe(0);
    await ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token: byEmail.token });
    expect(await inviteTask(inviter.token)).toMatchObject({ progress: 1 });
    expect(await totals(inviter.token)).toBe(1);

    await setSettings({ risk: { qualifiedInvite: 'verified_phone' } });
    try {
      expect(await inviteTask(inviter.token)).toMatchObject({ progress: 1 });
      expect(await totals(inviter.token)).toBe(1);
      await setSettings({ risk: { qualifiedInvite: 'registration' } });
      expect(await inviteTask(inviter.token)).toMatchObject({ progress: 2 });
      expect(await totals(inviter.token)).toBe(2);
    } finally {
      await setSettings({ risk: { qualifiedInvite: 'first_task' } });
    }
    expect(byPhone.username).toMatch(/^91\d{10}$/);
  });
});
