import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { notify } from '../src/platform/notifications.queries';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
let ctx: TestContext;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

type Item = { kind: string; id: number; title: string; body: string; pinned: boolean; read: boolean };

async function addNotice(body: Record<string, unknown>) {
  const res = await ctx.post(`${API}/admin/notice/add`, body, { token: await ctx.adminToken() });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}
const editNotice = async (body: Record<string, unknown>) =>
  ctx.post(`${API}/admin/notice/edit`, body, { token: await ctx.adminToken() });
const inbox = async (token: string, query = '', lang?: string) => {
  const res = await ctx.get(`${API}/common/notice/list${query}`, { token, lang });
  expect(res.status).toBe(200);
  return res.body.data as { items: Item[]; nextCursor: string | null };
};
const unread = async (token: string) => (await ctx.get(`${API}/user/notice/unread`, { token })).body.data;
const title = (name: string) => `${name} ${++seq}`;

describe('notices for users', () => {
  it('shows only published notices whose time has come, never drafts', async () => {
    const user = await ctx.newUser();
    const draft = await addNotice({ title: title('Draft'), body: 'Not yet', published: false });
    const later = await addNotice({
      title: title('Scheduled'),
      body: 'Tomorrow',
      published: true,
      publishedAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const ids = async () => (await inbox(user.token, '?kind=notice')).items.map((i) => i.id);
    expect(await ids()).not.toContain(draft);
    expect(await ids()).not.toContain(later);
    const detail = await ctx.get(`${API}/common/notice/detail?id=${draft}`, { token: user.token });
    expect(detail.body).toMatchObject({ code: 404, key: 'notice_not_found' });

    expect((await editNotice({ id: draft, published: true })).body.data).toMatchObject({ state: 'published' });
    expect(await ids()).toContain(draft);
    expect(await ids()).not.toContain(later);
  });

  it('puts pinned notices first, then the newest, notices and notifications together, in keyset pages', async () => {
    const user = await ctx.newUser();
    // Apart by whole seconds, not by sleeping: the notices' times come from the test clock, the
    // notification's from the database's (now): the older notice a second before it, the others after.
    const older = await addNotice({
      title: title('Older'),
      body: 'b',
      published: true,
      publishedAt: new Date(Date.now() - 1000).toISOString(),
    });
    await notify(ctx.db, {
      userId: user.id,
      kind: 'reward_credited',
      params: { amount: '5.00' },
      dedupeKey: `test:reward:${user.id}`,
    });
    ctx.advance(1000);
    const pinned = await addNotice({ title: title('Pinned'), body: 'b', published: true, pinned: true });
    ctx.advance(1000);
    const newer = await addNotice({ title: title('Newer'), body: 'b', published: true });

    const seen: { kind: string; id: number }[] = [];
    let cursor: string | null = null;
    do {
      const pageData: { items: Item[]; nextCursor: string | null } = await inbox(
        user.token,
        `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...pageData.items.map(({ kind, id }) => ({ kind, id })));
      cursor = pageData.nextCursor;
    } while (cursor);
    const mine = seen.filter((i) => i.kind === 'notification' || [older, pinned, newer].includes(i.id));
    expect(mine).toEqual([
      { kind: 'notice', id: pinned },
      { kind: 'notice', id: newer },
      { kind: 'notification', id: expect.any(Number) },
      { kind: 'notice', id: older },
    ]);
    expect(new Set(seen.map((i) => `${i.kind}:${i.id}`)).size).toBe(seen.length);
    expect((await ctx.get(`${API}/common/notice/list?cursor=nonsense`, { token: user.token })).status).toBe(400);
  });

  it('needs a logged-in user', async () => {
    expect((await ctx.get(`${API}/common/notice/list`)).status).toBe(401);
    expect((await ctx.get(`${API}/user/notice/unread`)).status).toBe(401);
  });
});

describe('read state', () => {
  it('marks a notice read when opened, and counts unread ones for the Profile entry', async () => {
    // Published a minute before the user joins (users' join times are the database's own clock).
    const old = await addNotice({
      title: title('Before you joined'),
      body: 'b',
      published: true,
      publishedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const fresh = await addNotice({
      title: title('Fresh'),
      body: 'Hello',
      published: true,
      imageUrl: `/uploads/${'a'.repeat(64)}.png`,
    });
    const byId = async (id: number) => (await inbox(user.token, '?kind=notice')).items.find((i) => i.id === id);
    expect(await byId(old)).toMatchObject({ read: true });
    expect(await byId(fresh)).toMatchObject({ read: false, body: 'Hello', imageUrl: `/uploads/${'a'.repeat(64)}.png` });
    const before = await unread(user.token);

    const opened = await ctx.get(`${API}/common/notice/detail?id=${fresh}`, { token: user.token });
    expect(opened.body.data).toMatchObject({ kind: 'notice', id: fresh, read: true, body: 'Hello' });
    expect(await byId(fresh)).toMatchObject({ read: true });
    expect(await unread(user.token)).toMatchObject({ count: before.count - 1, notices: before.notices - 1 });
    // Read state is per user.
    const otherList = await inbox(other.token, '?kind=notice');
    expect(otherList.items.find((i) => i.id === fresh)).toMatchObject({ read: false });
  });

  it("shows the user's own notifications in their language and marks them read when opened", async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    await notify(ctx.db, {
      userId: user.id,
      kind: 'withdrawal_rejected',
      params: { amount: '150.00', reason: 'Name does not match', withdrawalId: 17 },
      dedupeKey: `test:withdrawal:${user.id}:rejected`,
    });
    expect(await unread(user.token)).toMatchObject({ notifications: 1 });

    const english = (await inbox(user.token, '?kind=notification')).items;
    expect(english).toEqual([
      expect.objectContaining({
        kind: 'notification',
        title: 'Withdrawal rejected',
        body: 'Your withdrawal of ₹150.00 was rejected: Name does not match. The amount is back in your wallet.',
        read: false,
        notification: { type: 'withdrawal_rejected', params: expect.objectContaining({ withdrawalId: 17 }) },
      }),
    ]);
    const hindi = (await inbox(user.token, '?kind=notification', 'hi_IN')).items[0];
    expect(hindi?.title).toBe('निकासी अस्वीकृत');
    expect((await inbox(other.token, '?kind=notification')).items).toEqual([]);

    const id = english[0]?.id;
    const stranger = await ctx.get(`${API}/common/notice/detail?kind=notification&id=${id}`, { token: other.token });
    expect(stranger.body.key).toBe('notice_not_found');
    const opened = await ctx.get(`${API}/common/notice/detail?kind=notification&id=${id}`, { token: user.token });
    expect(opened.body.data).toMatchObject({ id, read: true, title: 'Withdrawal rejected' });
    expect((await inbox(user.token, '?kind=notification')).items[0]?.read).toBe(true);
    expect(await unread(user.token)).toMatchObject({ notifications: 0 });
  });
});

describe('notices for operators', () => {
  it('publishes a new notice on save unless it is saved as a draft', async () => {
    const user = await ctx.newUser();
    const token = await ctx.adminToken();
    const id = await addNotice({ title: title('Diwali bonus'), body: 'Tasks pay double' });
    expect((await ctx.get(`${API}/admin/notice/detail?id=${id}`, { token })).body.data).toMatchObject({
      state: 'published',
      published: true,
    });
    const draft = await addNotice({ title: title('Later'), body: 'Not yet', published: false });
    const seen = (await inbox(user.token, '?kind=notice')).items.map((i) => i.id);
    expect(seen).toContain(id);
    expect(seen).not.toContain(draft);
  });

  it('adds, edits, lists by state and deletes, with an audit row for each write', async () => {
    const token = await ctx.adminToken();
    const empty = await ctx.post(`${API}/admin/notice/add`, { title: ' ', body: 'x' }, { token });
    expect(empty.body).toMatchObject({ code: 400, key: 'enter_notice_title' });
    const noBody = await ctx.post(`${API}/admin/notice/add`, { title: 'x' }, { token });
    expect(noBody.body.key).toBe('enter_notice_body');

    const id = await addNotice({ title: title('Maintenance'), body: 'Sunday 2am', published: false });
    expect((await ctx.get(`${API}/admin/notice/detail?id=${id}`, { token })).body.data).toMatchObject({
      id,
      state: 'draft',
      published: false,
      publishedAt: null,
      pinned: false,
      readCount: 0,
    });
    const edited = await editNotice({ id, pinned: true, published: true });
    expect(edited.body.data).toMatchObject({ body: 'Sunday 2am', pinned: true, state: 'published' });
    expect(edited.body.data.publishedAt).not.toBeNull();

    const drafts = (await ctx.get(`${API}/admin/notice/list?state=draft`, { token })).body.data.items;
    expect(drafts.map((n: { id: number }) => n.id)).not.toContain(id);
    const published = (await ctx.get(`${API}/admin/notice/list?state=published`, { token })).body.data.items;
    expect(published.map((n: { id: number }) => n.id)).toContain(id);

    expect((await ctx.post(`${API}/admin/notice/delete`, { id }, { token })).status).toBe(200);
    expect((await ctx.get(`${API}/admin/notice/detail?id=${id}`, { token })).status).toBe(404);
    expect((await ctx.post(`${API}/admin/notice/delete`, { id }, { token })).body.key).toBe('notice_not_found');
    const [audits] = await ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(like(auditLog.target, `notice:${id}`));
    expect(audits?.n).toBe(3);
    const [deleted] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'notice.delete'));
    expect(deleted?.before).toMatchObject({ id, title: expect.stringContaining('Maintenance') });
  });

  it('is for operators only', async () => {
    const user = await ctx.newUser();
    const res = await ctx.post(`${API}/admin/notice/add`, { title: 't', body: 'b' }, { token: user.token });
    expect(res.body).toMatchObject({ code: 403, key: 'forbidden' });
    expect((await ctx.get(`${API}/admin/notice/list`, { token: user.token })).status).toBe(403);
  });
});
