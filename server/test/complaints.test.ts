import { COMPLAINTS_OPEN_MAX, translate } from '@kamai/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, complaints, entries, notifications } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { scrapeMetric } from './metrics-text';
import { API, bindUpi, payee, withdraw } from './payout-helpers';
import { browserSubscription, startFakePushService } from './push-fake';

const ADD = `${API}/user/complaint/add`;
const LIST = `${API}/user/complaint/list`;
const DETAIL = `${API}/user/complaint/detail`;
const ADMIN = `${API}/admin/complaint`;
const HOUR = 3_600_000;

let ctx: TestContext;
let fake: Awaited<ReturnType<typeof startFakePushService>>;

beforeAll(async () => {
  fake = await startFakePushService();
  ctx = await createTestContext({ PUSH_ALLOWED_ORIGINS: fake.origin });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

async function complaintCount(userId: number) {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(complaints)
    .where(eq(complaints.userId, userId));
  return row?.n ?? 0;
}

/** Moves a complaint's raising time back by `hours`: its deadlines are counted from it. */
async function raisedHoursAgo(id: number, hours: number) {
  await ctx.db
    .update(complaints)
    .set({ createdAt: new Date(Date.now() - hours * HOUR) })
    .where(eq(complaints.id, id));
}

async function summary() {
  const res = await ctx.get(`${ADMIN}/summary`, { token: await ctx.adminToken() });
  expect(res.status).toBe(200);
  return res.body.data as { open: number; overdue: number; officerSet: boolean };
}

async function gauge(name: string) {
  const [sample] = await scrapeMetric(ctx.app, name);
  return sample?.value;
}

describe('raising a complaint', () => {
  it('about an own withdrawal: a number, the deadlines and the language it was written in', async () => {
    const user = await payee(ctx, 500);
    const { id: withdrawalId } = (await withdraw(ctx, user.token, { amount: 200 })).body.data;
    const before = Date.now();
    const res = await ctx.post(
      ADD,
      {
        category: 'withdrawal',
        text: '  मेरी निकासी अभी तक नहीं आई  ',
        subject: { kind: 'withdrawal', id: withdrawalId },
      },
      { token: user.token, lang: 'hi-IN' },
    );
    expect(res.status).toBe(200);
    expect(res.body.key).toBe('complaint_raised');
    expect(res.body.message).toBe(translate('hi_IN', 'complaint_raised'));
    const c = res.body.data;
    expect(c.number).toBe(`KM-${String(c.id).padStart(6, '0')}`);
    expect(c).toMatchObject({
      state: 'open',
      category: 'withdrawal',
      locale: 'hi_IN',
      text: 'मेरी निकासी अभी तक नहीं आई',
      subject: { kind: 'withdrawal', id: withdrawalId },
      acknowledgedAt: null,
      closedAt: null,
      outcome: null,
    });
    const raised = Date.parse(c.createdAt);
    expect(raised).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(c.ackDueAt) - raised).toBe(24 * HOUR);
    expect(Date.parse(c.resolveDueAt) - raised).toBe(15 * 24 * HOUR);
    expect(c.events).toEqual([{ kind: 'raised', at: c.createdAt, text: c.text, outcome: null }]);

    const list = await ctx.get(`${LIST}?limit=5`, { token: user.token });
    expect(list.body.data.items.map((i: { id: number }) => i.id)).toEqual([c.id]);
    const detail = await ctx.get(`${DETAIL}?id=${c.id}`, { token: user.token });
    expect(detail.body.data).toEqual(c);
  });

  it("refuses another user's withdrawal, entry or payout account as not found, and writes nothing", async () => {
    const owner = await payee(ctx, 500);
    const { id: withdrawalId } = (await withdraw(ctx, owner.token, { amount: 100 })).body.data;
    const accountId = await bindUpi(ctx, owner.token, 'other.one@okaxis');
    const [entry] = await ctx.db
      .select({ id: entries.id })
      .from(entries)
      .innerJoin(accounts, eq(accounts.id, entries.accountId))
      .where(eq(accounts.userId, owner.id))
      .limit(1);
    const stranger = await ctx.newUser();
    for (const subject of [
      { kind: 'withdrawal', id: withdrawalId },
      { kind: 'payout_account', id: accountId },
      { kind: 'entry', id: entry?.id },
      { kind: 'withdrawal', id: 987654321 },
    ]) {
      const res = await ctx.post(ADD, { category: 'other', text: 'Not mine', subject }, { token: stranger.token });
      expect(res.status).toBe(404);
      expect(res.body.key).toBe('complaint_subject_not_found');
      expect(res.body.data.fields).toEqual({ subject: 'complaint_subject_not_found' });
    }
    expect(await complaintCount(stranger.id)).toBe(0);
    // The owner may: the entry and the account are theirs.
    for (const subject of [
      { kind: 'entry', id: entry?.id },
      { kind: 'payout_account', id: accountId },
    ]) {
      expect((await ctx.post(ADD, { category: 'reward', text: 'Mine', subject }, { token: owner.token })).status).toBe(
        200,
      );
    }
    expect((await ctx.post(ADD, { category: 'other', text: 'x' })).status).toBe(401);
  });

  it('refuses hidden direction characters, empty or long text and an unknown category, writing nothing', async () => {
    const user = await ctx.newUser();
    const bidi = await ctx.post(ADD, { category: 'other', text: 'refund \u202E0001 ₹' }, { token: user.token });
    expect(bidi.status).toBe(400);
    expect(bidi.body.key).toBe('text_bidi_control');
    expect(bidi.body.data.fields).toEqual({ text: 'text_bidi_control' });
    const empty = await ctx.post(ADD, { category: 'other', text: '   ' }, { token: user.token, lang: 'zh-CN' });
    expect(empty.body).toMatchObject({ code: 400, key: 'enter_complaint_text', message: '请描述您的投诉' });
    const long = await ctx.post(ADD, { category: 'other', text: 'a'.repeat(2001) }, { token: user.token });
    expect(long.body.key).toBe('complaint_text_too_long');
    const category = await ctx.post(ADD, { category: 'money', text: 'x' }, { token: user.token });
    expect(category.body.key).toBe('complaint_category_required');
    expect(await complaintCount(user.id)).toBe(0);
  });

  it(`keeps at most ${COMPLAINTS_OPEN_MAX} open per user`, async () => {
    const user = await ctx.newUser();
    for (let i = 0; i < COMPLAINTS_OPEN_MAX; i += 1) {
      expect((await ctx.post(ADD, { category: 'other', text: `No. ${i}` }, { token: user.token })).status).toBe(200);
    }
    const over = await ctx.post(ADD, { category: 'other', text: 'One more' }, { token: user.token });
    expect(over.status).toBe(409);
    expect(over.body.key).toBe('complaints_open_limit');
    expect(await complaintCount(user.id)).toBe(COMPLAINTS_OPEN_MAX);
  });

  it(`keeps the limit under a parallel burst: ${COMPLAINTS_OPEN_MAX} of 12 at once get through`, async () => {
    const user = await ctx.newUser();
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        ctx.post(ADD, { category: 'other', text: `Burst ${i}` }, { token: user.token }),
      ),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(COMPLAINTS_OPEN_MAX);
    expect(burst.filter((r) => r.status !== 200).every((r) => r.body.key === 'complaints_open_limit')).toBe(true);
    expect(await complaintCount(user.id)).toBe(COMPLAINTS_OPEN_MAX);
  });
});

describe('operators answering a complaint', () => {
  it('acknowledge, reply and close it: the user reads each step, is notified and pushed, and each is audited', async () => {
    const user = await payee(ctx, 500);
    const browser = browserSubscription(`${fake.origin}/push/complaints-${Date.now()}`);
    expect(
      (await ctx.post(`${API}/user/push/subscribe`, browser.json, { token: user.token, lang: 'zh-CN' })).status,
    ).toBe(200);
    const { id: withdrawalId } = (await withdraw(ctx, user.token, { amount: 150 })).body.data;
    const raised = await ctx.post(
      ADD,
      { category: 'withdrawal', text: '提现还没到账', subject: { kind: 'withdrawal', id: withdrawalId } },
      { token: user.token, lang: 'zh-CN' },
    );
    const id = raised.body.data.id as number;
    const reviewer = await ctx.staff('reviewer');

    const queue = await ctx.get(`${ADMIN}/list?state=open&limit=100`, { token: reviewer.token });
    expect(queue.status).toBe(200);
    const row = queue.body.data.items.find((i: { id: number }) => i.id === id);
    expect(row).toMatchObject({
      userId: user.id,
      username: user.username,
      locale: 'zh_CN',
      ackOverdue: false,
      resolutionOverdue: false,
      subjectView: { kind: 'withdrawal', id: withdrawalId, found: true, amount: '150.00', state: 'pending' },
    });
    expect(row.subjectView.account).toMatch(/^upi as•••@okaxis$/);
    // A user cannot work the queue.
    expect((await ctx.get(`${ADMIN}/list`, { token: user.token })).status).toBe(403);
    expect((await ctx.post(`${ADMIN}/acknowledge`, { id }, { token: user.token })).status).toBe(403);

    const ack = await ctx.post(`${ADMIN}/acknowledge`, { id }, { token: reviewer.token });
    expect(ack.body).toMatchObject({ code: 200, key: 'complaint_acknowledged', data: { state: 'acknowledged' } });
    expect((await ctx.post(`${ADMIN}/acknowledge`, { id }, { token: reviewer.token })).body.key).toBe(
      'complaint_acknowledged_already',
    );
    const reply = await ctx.post(
      `${ADMIN}/reply`,
      { id, text: '您的提现已在处理中，预计今天到账。' },
      { token: reviewer.token },
    );
    expect(reply.body).toMatchObject({ code: 200, key: 'complaint_reply_sent' });
    const refused = await ctx.post(`${ADMIN}/reply`, { id, text: 'x\u2066y' }, { token: reviewer.token });
    expect(refused.body.key).toBe('text_bidi_control');
    const close = await ctx.post(
      `${ADMIN}/close`,
      { id, outcome: 'upheld', text: '已到账，感谢您的耐心。' },
      { token: reviewer.token },
    );
    expect(close.body).toMatchObject({
      code: 200,
      key: 'complaint_closed',
      data: { state: 'closed', outcome: 'upheld' },
    });
    expect((await ctx.post(`${ADMIN}/reply`, { id, text: 'late' }, { token: reviewer.token })).body.key).toBe(
      'complaint_already_closed',
    );
    expect(
      (await ctx.post(`${ADMIN}/close`, { id, outcome: 'maybe', text: 'x' }, { token: reviewer.token })).body.key,
    ).toBe('complaint_outcome_required');
    expect((await ctx.post(`${ADMIN}/acknowledge`, { id: 99999999 }, { token: reviewer.token })).status).toBe(404);

    const detail = (await ctx.get(`${DETAIL}?id=${id}`, { token: user.token })).body.data;
    expect(detail.events.map((e: { kind: string }) => e.kind)).toEqual(['raised', 'acknowledged', 'reply', 'closed']);
    expect(detail.events[2].text).toBe('您的提现已在处理中，预计今天到账。');
    expect(detail.events[3]).toMatchObject({ text: '已到账，感谢您的耐心。', outcome: 'upheld' });
    expect(detail.acknowledgedAt).not.toBeNull();
    expect(detail.closedAt).not.toBeNull();
    // Another user cannot read it.
    const other = await ctx.newUser();
    expect((await ctx.get(`${DETAIL}?id=${id}`, { token: other.token })).body.key).toBe('complaint_not_found');

    const kinds = (await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))).map(
      (n) => n.kind,
    );
    expect(kinds.filter((k) => k.startsWith('complaint_'))).toEqual([
      'complaint_acknowledged',
      'complaint_replied',
      'complaint_closed',
    ]);
    const inbox = await ctx.get(`${API}/common/notice/list?kind=notification&limit=50`, {
      token: user.token,
      lang: 'zh-CN',
    });
    const number = detail.number as string;
    expect(inbox.body.data.items.map((i: { title: string }) => i.title)).toContain(`投诉 ${number} 已结案`);

    await ctx.worker.jobs.runDue();
    const pushes = fake.received.filter((r) => r.path === new URL(browser.json.endpoint).pathname);
    expect(pushes).toHaveLength(3);
    const texts = pushes.map((p) => JSON.parse(browser.decrypt(p.body)) as { title: string; url: string });
    expect(texts.map((t) => t.title)).toEqual([
      `投诉 ${number} 已确认收到`,
      `投诉 ${number} 有新回复`,
      `投诉 ${number} 已结案`,
    ]);
    expect(texts[0]?.url).toBe(`/Complaint?id=${id}`);

    const audits = await ctx.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(eq(auditLog.target, `complaint:${id}`));
    expect(audits).toEqual([
      { action: 'complaint.acknowledge', actorId: reviewer.id },
      { action: 'complaint.reply', actorId: reviewer.id },
      { action: 'complaint.close', actorId: reviewer.id },
    ]);
  });

  it('a reply to a complaint nobody acknowledged acknowledges it first, with one notification', async () => {
    const user = await ctx.newUser();
    const { id } = (await ctx.post(ADD, { category: 'privacy', text: 'Delete my old number' }, { token: user.token }))
      .body.data;
    const reply = await ctx.post(`${ADMIN}/reply`, { id, text: 'Done.' }, { token: await ctx.adminToken() });
    expect(reply.body.data.state).toBe('acknowledged');
    expect(reply.body.data.events.map((e: { kind: string }) => e.kind)).toEqual(['raised', 'acknowledged', 'reply']);
    const notes = await ctx.db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.kind)).toEqual(['complaint_replied']);
  });
});

describe('deadlines and overdue counts', () => {
  it('counts open and overdue complaints on the dashboard, the summary and /metrics', async () => {
    const start = await summary();
    const startGauge = { open: await gauge('kamai_complaints_open'), overdue: await gauge('kamai_complaints_overdue') };
    expect(startGauge).toEqual({ open: start.open, overdue: start.overdue });

    const user = await ctx.newUser();
    const raise = async (text: string) =>
      (await ctx.post(ADD, { category: 'other', text }, { token: user.token })).body.data.id as number;
    const fresh = await raise('Fresh');
    const late = await raise('Not acknowledged for a day');
    const old = await raise('Acknowledged, open for sixteen days');
    const closed = await raise('Closed after a month');
    const admin = await ctx.adminToken();
    expect((await ctx.post(`${ADMIN}/acknowledge`, { id: old }, { token: admin })).status).toBe(200);
    expect(
      (await ctx.post(`${ADMIN}/close`, { id: closed, outcome: 'other', text: 'Settled' }, { token: admin })).status,
    ).toBe(200);
    await raisedHoursAgo(late, 25);
    await raisedHoursAgo(old, 16 * 24);
    await raisedHoursAgo(closed, 30 * 24);

    const now = await summary();
    expect(now.open - start.open).toBe(3);
    expect(now.overdue - start.overdue).toBe(2);
    expect(await gauge('kamai_complaints_open')).toBe(now.open);
    expect(await gauge('kamai_complaints_overdue')).toBe(now.overdue);
    const dashboard = await ctx.get(`${API}/admin/dashboard`, { token: admin });
    expect(dashboard.body.data.complaints).toEqual({ open: now.open, overdue: now.overdue });

    const overdue = await ctx.get(`${ADMIN}/list?state=overdue&limit=100`, { token: admin });
    const byId = new Map(
      overdue.body.data.items.map((i: { id: number; ackOverdue: boolean; resolutionOverdue: boolean }) => [i.id, i]),
    );
    expect(byId.get(late)).toMatchObject({ ackOverdue: true, resolutionOverdue: false });
    expect(byId.get(old)).toMatchObject({ ackOverdue: false, resolutionOverdue: true });
    expect(byId.has(fresh)).toBe(false);
    expect(byId.has(closed)).toBe(false);
    // The user sees the deadline as it was set when raised.
    const mine = (await ctx.get(`${DETAIL}?id=${late}`, { token: user.token })).body.data;
    expect(Date.parse(mine.ackDueAt)).toBeLessThan(Date.now());
  });

  it('tells the console whether the Grievance Officer is set', async () => {
    const token = await ctx.adminToken();
    expect((await summary()).officerSet).toBe(false);
    const current = await ctx.get(`${API}/admin/page/get?slug=privacy`, { token });
    const officer = { name: 'Anita Rao', email: 'grievance@kamai.in', address: '12 MG Road, Bengaluru 560001' };
    const set = await ctx.post(
      `${API}/admin/page/set`,
      { slug: 'privacy', texts: current.body.data.texts, grievance: officer },
      { token },
    );
    expect(set.status).toBe(200);
    expect((await summary()).officerSet).toBe(true);
  });
});
