import { DATA_EXPORTS_PER_HOUR } from '@kamai/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, fund, withdraw } from './payout-helpers';

/** "Download my data" (DPDP Act 2023, s. 11): the caller's own records, and nobody else's. */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

const EXPORT = `${API}/user/account/export`;

describe('user/account/export', () => {
  it("gives the caller's profile, masked payout accounts, ledger, withdrawals, tasks, invites and notices read", async () => {
    const admin = await ctx.adminToken();
    const notice = await ctx.post(`${API}/admin/notice/add`, { title: 'Diwali bonus', body: 'b' }, { token: admin });
    expect(notice.status).toBe(200);

    const asha = await ctx.newUser({ username: 'asha.export@example.com' });
    const friend = await ctx.newUser({ username: 'friend.export@example.com', inviteCode: asha.inviteCode });
    const other = await ctx.newUser({ username: 'other.export@example.com' });
    await bindUpi(ctx, asha.token, 'asha.k@okaxis');
    await bindUpi(ctx, other.token, 'othr.z@okicici');
    await fund(ctx, asha.id, 200);
    await fund(ctx, other.id, 100);
    const accountId = (await ctx.get(`${API}/user/wdaccount/list`, { token: asha.token })).body.data.items[0].id;
    const requested = await withdraw(ctx, asha.token, { amount: '100', accountId });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const read = await ctx.get(`${API}/common/notice/detail?id=${notice.body.data.id}`, { token: asha.token });
    expect(read.status).toBe(200);

    const res = await ctx.get(EXPORT, { token: asha.token });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.profile).toMatchObject({
      id: asha.id,
      username: 'asha.export@example.com',
      inviteCode: asha.inviteCode,
    });
    expect(data.payoutAccounts).toEqual([expect.objectContaining({ type: 'upi', accountName: 'Asha Kumari' })]);
    expect(data.payoutAccounts[0].accountNo).not.toContain('asha.k@okaxis');
    expect(data.withdrawals).toEqual([expect.objectContaining({ amount: '100.00', state: 'pending' })]);
    expect(data.withdrawals[0].accountNo).not.toContain('asha.k');
    // Register reward, the rebate of the friend's registration (pending until the friend's reward is final),
    // the funds, the withdrawal out of the wallet into the hold.
    const types = data.ledger.map((e: { type: string }) => e.type);
    expect(types).toEqual(['task_reward', 'rebate', 'manual_credit', 'withdrawal_hold', 'withdrawal_hold']);
    expect(data.ledger.map((e: { account: string }) => e.account)).toEqual([
      'wallet',
      'rebate_pending',
      'wallet',
      'wallet',
      'hold',
    ]);
    expect(data.tasks.completed).toEqual([expect.objectContaining({ taskId: 2 })]);
    expect(data.invites).toHaveLength(1);
    expect(data.noticesRead).toEqual([
      expect.objectContaining({ noticeId: notice.body.data.id, title: 'Diwali bonus' }),
    ]);

    // Nothing of another user: not the friend, not the other user, not the inviter (the admin).
    const text = JSON.stringify(data);
    for (const foreign of [
      'friend.export',
      'other.export',
      'othr.z',
      String(friend.inviteCode),
      String(other.inviteCode),
      ctx.admin.username,
    ]) {
      expect(text, foreign).not.toContain(foreign);
    }
    expect(text).not.toContain(`"id":${friend.id},`);
    expect(text).not.toContain(`"id":${other.id},`);

    const theirs = await ctx.get(EXPORT, { token: other.token });
    expect(JSON.stringify(theirs.body.data)).not.toContain('asha');
    expect(theirs.body.data.invites).toEqual([]);
  });

  it('is limited to a few downloads an hour, and only for a logged-in user', async () => {
    expect((await ctx.get(EXPORT)).status).toBe(401);
    const user = await ctx.newUser();
    for (let i = 0; i < DATA_EXPORTS_PER_HOUR; i += 1)
      expect((await ctx.get(EXPORT, { token: user.token })).status).toBe(200);
    const refused = await ctx.get(EXPORT, { token: user.token, lang: 'hi-IN' });
    expect(refused.status).toBe(429);
    expect(refused.body.key).toBe('too_many_requests');
  });
});
