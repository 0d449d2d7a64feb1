import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../src/platform/notifications.queries';
import { createTestContext, type TestContext } from './helpers';

/** What the inbox list showed is read, so the Profile badge drops once the list is seen. */
const API = '/go_user/api/v1';
const SEEN = `${API}/user/notice/seen`;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

async function addNotice(body: Record<string, unknown>) {
  const res = await ctx.post(`${API}/admin/notice/add`, body, { token: await ctx.adminToken() });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

async function notification(userId: number, key: string) {
  await notify(ctx.db, { userId, kind: 'reward_credited', params: { amount: '10.00' }, dedupeKey: key });
}

async function inbox(token: string) {
  const res = await ctx.get(`${API}/common/notice/list?limit=50`, { token });
  expect(res.status).toBe(200);
  return res.body.data.items as { kind: string; id: number; read: boolean }[];
}

const unread = async (token: string) => (await ctx.get(`${API}/user/notice/unread`, { token })).body.data;

describe('notice/seen', () => {
  it('marks read the notices and own notifications the list showed; the badge drops to what is left', async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const notice = await addNotice({ title: 'Diwali bonus week', body: 'Double rewards on every task.' });
    const draft = await addNotice({ title: 'Draft', body: 'Not yet', published: false });
    for (const n of [1, 2, 3]) await notification(user.id, `seen-test:${user.id}:${n}`);
    await notification(other.id, `seen-test:${other.id}:1`);

    expect((await unread(user.token)).notifications).toBe(3);
    const before = await unread(user.token);
    const items = await inbox(user.token);
    const mine = items.filter((i) => i.kind === 'notification').map((i) => i.id);
    const theirs = (await inbox(other.token)).filter((i) => i.kind === 'notification').map((i) => i.id);

    // Two of three notifications, the notice, someone else's notification and a draft: only the caller's
    // own and the published notice change.
    const res = await ctx.post(
      SEEN,
      { notices: [notice, draft, notice], notifications: [...mine.slice(0, 2), ...theirs] },
      { token: user.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      count: before.count - 3,
      notices: before.notices - 1,
      notifications: 1,
    });
    expect(await unread(user.token)).toEqual(res.body.data);
    expect((await unread(other.token)).notifications).toBe(1);
    const after = await inbox(user.token);
    expect(after.find((i) => i.kind === 'notice' && i.id === notice)?.read).toBe(true);
    expect(after.filter((i) => i.kind === 'notification' && !i.read).map((i) => i.id)).toEqual([mine[2]]);

    // Again: nothing more to mark, same answer.
    expect((await ctx.post(SEEN, { notifications: mine.slice(0, 2) }, { token: user.token })).body.data).toEqual(
      res.body.data,
    );
  });

  it('refuses more than a page of ids, bad ids and a caller without a session', async () => {
    const user = await ctx.newUser();
    const many = Array.from({ length: 51 }, (_, i) => i + 1);
    for (const body of [{ notifications: many }, { notices: ['x'] }, { notices: [-1] }, { notifications: 'all' }]) {
      const res = await ctx.post(SEEN, body, { token: user.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.key).toBe('validation_failed');
    }
    expect((await ctx.post(SEEN, { notices: [1] })).status).toBe(401);
  });
});
