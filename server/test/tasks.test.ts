import { and, asc, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, entries, postings, taskCompletions } from '../src/db/schema';
import { releaseDueRebates } from '../src/features/referrals';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
/** An automatic condition every registered user meets (task 2 paid them ₹5). */
const INCOME_EVER = { kind: 'automatic', condition: { type: 'income', amount: '0.01', days: 365 } };
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

type Item = { id: number; state: string; progress: number; targetCount: number; title: string; reward: string };
type Sections = { section: string; items: Item[] }[];

async function taskList(token: string, lang?: string) {
  const res = await ctx.get(`${API}/user/task/list`, { token, lang });
  expect(res.status).toBe(200);
  return res.body.data.sections as Sections;
}

function findTask(sections: Sections, id: number) {
  return sections.flatMap((s) => s.items).find((i) => i.id === id);
}

const finish = (token: string, taskId: number | string) => ctx.post(`${API}/user/task/finish`, { taskId }, { token });
async function submitSurvey(token: string) {
  const res = await ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token });
  expect(res.status).toBe(200);
}

async function postingsWithKey(pattern: string) {
  const [row] = await ctx.db.select({ n: count() }).from(postings).where(like(postings.idempotencyKey, pattern));
  return row?.n ?? 0;
}

describe('registration finishes task 2', () => {
  it("credits ₹5 to the new user and owes the inviter's and the inviter's inviter's rebates, pending", async () => {
    const top = await ctx.newUser();
    const middle = await ctx.newUser({ inviteCode: top.inviteCode });
    const before = await ctx.balanceOf(top.token);
    const bottom = await ctx.newUser({ inviteCode: middle.inviteCode });

    expect(await ctx.balanceOf(bottom.token)).toBe('5.00');
    // Level 1 is 10 % of ₹5, level 2 is 5 %: pending for the hold, not in the wallets yet.
    expect(await ctx.balanceOf(middle.token)).toBe('5.00');
    expect((await ctx.get(`${API}/user/invite/list`, { token: middle.token })).body.data.totals).toMatchObject({
      rebatePending: '0.50',
    });
    expect(await ctx.balanceOf(top.token)).toBe(before);
    // The release job as it runs once the 7-day hold has passed (the test's clock stays).
    await releaseDueRebates(ctx.db, new Date(ctx.now().getTime() + 8 * 86_400_000));
    expect(await ctx.balanceOf(middle.token)).toBe('5.50');
    // top: level 2 on bottom's reward (₹0.25) and level 1 on middle's (₹0.50), both released now.
    expect(Number(await ctx.balanceOf(top.token)) - Number(before)).toBeCloseTo(0.75);

    const list = await ctx.get(`${API}/user/balance/list`, { token: middle.token });
    expect(list.body.data.items[0]).toMatchObject({
      type: 'rebate',
      amount: '0.50',
      ref: { inviteeId: bottom.id, level: 1 },
    });
    expect(list.body.data.items[1]).toMatchObject({ type: 'task_reward', amount: '5.00', ref: { taskId: 2 } });
    expect(findTask(await taskList(bottom.token), 2)).toMatchObject({ state: 'completed', progress: 1 });
    expect((await finish(bottom.token, 2)).body.key).toBe('task_already_claimed');
  });
});

describe('task/list', () => {
  it('groups by section in Home order and counts invitees toward the invite tasks', async () => {
    const user = await ctx.newUser();
    // An invitee counts as a friend once it completed a task other than registering (the default rule).
    const invitees = [
      await ctx.newUser({ inviteCode: user.inviteCode }),
      await ctx.newUser({ inviteCode: user.inviteCode }),
    ];
    expect(findTask(await taskList(user.token), 8)).toMatchObject({ state: 'incomplete', progress: 0 });
    for (const invitee of invitees) await submitSurvey(invitee.token);

    const sections = await taskList(user.token);
    expect(sections.map((s) => s.section)).toEqual(['hot', 'latest', 'newbie', 'limited', 'friends']);
    // Task 4 (the introduction) is hidden while there is no video.
    expect(sections.find((s) => s.section === 'newbie')?.items.map((i) => i.id)).toEqual([2, 3, 5, 6]);
    expect(sections.find((s) => s.section === 'friends')?.items.map((i) => i.id)).toEqual([7, 8, 9, 10]);
    expect(findTask(sections, 2)).toMatchObject({ state: 'completed', title: 'Register an account', reward: '5.00' });
    expect(findTask(sections, 3)).toMatchObject({ state: 'incomplete', progress: 0, targetCount: 1 });
    expect(findTask(sections, 5)).toMatchObject({ state: 'claimable', progress: 1 });
    expect(findTask(sections, 6)).toMatchObject({ state: 'incomplete', progress: 0 });
    expect(findTask(sections, 7)).toMatchObject({ state: 'claimable', progress: 1, targetCount: 1 });
    expect(findTask(sections, 8)).toMatchObject({ state: 'claimable', progress: 2, targetCount: 2 });
    expect(findTask(sections, 9)).toMatchObject({ state: 'incomplete', progress: 2, targetCount: 3 });
    expect(findTask(sections, 10)).toMatchObject({ state: 'incomplete', progress: 2, targetCount: 4 });

    const hindi = await taskList(user.token, 'hi_IN');
    expect(findTask(hindi, 2)?.title).toBe('खाता पंजीकृत करें');
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.get(`${API}/user/task/list`)).status).toBe(401);
  });
});

describe('task/finish', () => {
  it('credits once out of 50 parallel calls, with one rebate owed to each upline', async () => {
    const top = await ctx.newUser();
    const user = await ctx.newUser({ inviteCode: top.inviteCode });
    await submitSurvey((await ctx.newUser({ inviteCode: user.inviteCode })).token);
    const before = await ctx.balanceOf(user.token);

    const results = await Promise.all(Array.from({ length: 50 }, () => finish(user.token, 7)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.body).toMatchObject({ key: 'task_reward_credited', data: { taskId: 7, reward: '20.00' } });
    expect(results.filter((r) => r.status === 409 && r.body.key === 'task_already_claimed')).toHaveLength(49);

    const key = `task:7:user:${user.id}`;
    expect(await postingsWithKey(key)).toBe(1);
    // The user's inviter is `top` (level 1); top registered with the admin's code, so has no inviter:
    // a staff code makes no inviter, and no level-2 rebate is owed.
    expect(await postingsWithKey(`${key}:rebate:1`)).toBe(1);
    expect(await postingsWithKey(`${key}:rebate:2`)).toBe(0);
    expect(await postingsWithKey(`${key}:%`)).toBe(1);
    const [entryCount] = await ctx.db
      .select({ n: count() })
      .from(entries)
      .innerJoin(postings, eq(postings.id, entries.postingId))
      .where(like(postings.idempotencyKey, `${key}%`));
    expect(entryCount?.n).toBe(4);
    const [completions] = await ctx.db
      .select({ n: count() })
      .from(taskCompletions)
      .where(and(eq(taskCompletions.userId, user.id), eq(taskCompletions.taskId, 7)));
    expect(completions?.n).toBe(1);
    expect(Number(await ctx.balanceOf(user.token)) - Number(before)).toBe(20);
    expect(findTask(await taskList(user.token), 7)).toMatchObject({ state: 'completed' });
  });

  it('refuses an unmet condition, an unknown task and a bad id', async () => {
    const user = await ctx.newUser();
    const unmet = await finish(user.token, 9);
    expect(unmet).toMatchObject({ status: 409, body: { key: 'task_condition_unmet' } });
    expect((await finish(user.token, 6)).body.key).toBe('task_condition_unmet');
    expect((await finish(user.token, 3)).body.key).toBe('task_condition_unmet');
    expect(await finish(user.token, 9999)).toMatchObject({ status: 404, body: { key: 'task_not_found' } });
    expect(await finish(user.token, 'x')).toMatchObject({ status: 400, body: { key: 'task_not_found' } });
    expect((await ctx.post(`${API}/user/task/finish`, { taskId: 7 })).status).toBe(401);
  });
});

describe('admin tasks', () => {
  it('adds a task in two languages that users see, claim, and keep after it is deleted', async () => {
    const admin = await ctx.adminToken();
    const added = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'hot',
        reward: '12.34',
        titles: { en_US: 'Follow us', hi_IN: 'हमें फ़ॉलो करें' },
        descriptions: { en_US: 'Follow our page' },
        sort: 1,
        verification: INCOME_EVER,
      },
      { token: admin },
    );
    expect(added.status).toBe(200);
    const id = added.body.data.id as number;
    expect(id).toBeGreaterThan(100);

    const user = await ctx.newUser();
    const english = findTask(await taskList(user.token), id);
    expect(english).toMatchObject({ title: 'Follow us', reward: '12.34', state: 'claimable' });
    const hindi = await ctx.get(`${API}/user/task/list`, { token: user.token, lang: 'hi_IN' });
    expect(hindi.body.data.sections[0]).toMatchObject({ section: 'hot' });
    expect(findTask(hindi.body.data.sections, id)).toMatchObject({
      title: 'हमें फ़ॉलो करें',
      description: 'Follow our page',
    });

    const claimed = await finish(user.token, id);
    expect(claimed.body.data).toEqual({ taskId: id, reward: '12.34', balance: '17.34' });
    expect((await ctx.get(`${API}/admin/task/detail?id=${id}`, { token: admin })).body.data).toMatchObject({
      id,
      kind: 'custom',
      system: false,
      completions: 1,
      titles: { en_US: 'Follow us', hi_IN: 'हमें फ़ॉलो करें' },
    });

    expect((await ctx.post(`${API}/admin/task/delete`, { id }, { token: admin })).status).toBe(200);
    expect(findTask(await taskList(user.token), id)).toBeUndefined();
    expect((await finish(user.token, id)).body.key).toBe('task_not_found');
    expect((await ctx.get(`${API}/admin/task/detail?id=${id}`, { token: admin })).status).toBe(404);
    const adminList = await ctx.get(`${API}/admin/task/list`, { token: admin });
    expect(adminList.body.data.items.map((t: { id: number }) => t.id)).not.toContain(id);

    const paid = await ctx.get(`${API}/admin/balance/list?userId=${user.id}&type=task_reward`, { token: admin });
    expect(
      paid.body.data.items.map((i: { ref: { taskId: number }; amount: string }) => [i.ref.taskId, i.amount]),
    ).toEqual([
      [id, '12.34'],
      [2, '5.00'],
    ]);
    expect(await ctx.balanceOf(user.token)).toBe('17.34');
    const audits = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `task:${id}`));
    expect(audits.map((a) => a.action).sort()).toEqual(['task.add', 'task.delete']);
  });

  it('keeps descriptions and links per language: the reader gets theirs, else English; a bad link is refused', async () => {
    const admin = await ctx.adminToken();
    const body = {
      section: 'hot',
      reward: '1.00',
      titles: { en_US: 'Watch the video', gu_IN: 'વિડિઓ જુઓ' },
      descriptions: { en_US: 'Watch it to the end', gu_IN: 'અંત સુધી જુઓ' },
      links: { en_US: 'https://example.com/en', gu_IN: 'https://example.com/gu', hi_IN: '' },
      verification: { kind: 'proof', proof: 'link' },
    };
    const added = await ctx.post(`${API}/admin/task/add`, body, { token: admin });
    expect(added.status).toBe(200);
    const id = added.body.data.id as number;
    const detail = await ctx.get(`${API}/admin/task/detail?id=${id}`, { token: admin });
    // A blank link is not stored: that language falls back to English.
    expect(detail.body.data).toMatchObject({
      descriptions: { en_US: 'Watch it to the end', gu_IN: 'અંત સુધી જુઓ' },
      links: { en_US: 'https://example.com/en', gu_IN: 'https://example.com/gu' },
    });
    expect(detail.body.data.links).not.toHaveProperty('hi_IN');

    const user = await ctx.newUser();
    expect(findTask(await taskList(user.token, 'gu_IN'), id)).toMatchObject({
      title: 'વિડિઓ જુઓ',
      description: 'અંત સુધી જુઓ',
      link: 'https://example.com/gu',
    });
    expect(findTask(await taskList(user.token, 'hi_IN'), id)).toMatchObject({
      title: 'Watch the video',
      description: 'Watch it to the end',
      link: 'https://example.com/en',
    });

    const edited = await ctx.post(
      `${API}/admin/task/edit`,
      { id, links: { en_US: 'https://example.com/en', pa_IN: 'https://example.com/pa' } },
      { token: admin },
    );
    expect(edited.status).toBe(200);
    expect(findTask(await taskList(user.token, 'pa_IN'), id)).toMatchObject({ link: 'https://example.com/pa' });
    // Replaced as a whole: the Gujarati link is gone, so Gujarati readers get English.
    expect(findTask(await taskList(user.token, 'gu_IN'), id)).toMatchObject({ link: 'https://example.com/en' });

    for (const link of ['javascript:alert(1)', 'ftp://example.com/x', `https://example.com/${'a'.repeat(600)}`]) {
      const refused = await ctx.post(
        `${API}/admin/task/edit`,
        { id, links: { en_US: link } },
        { token: admin, lang: 'hi_IN' },
      );
      expect(refused).toMatchObject({ status: 400, body: { key: 'task_proof_link_invalid' } });
      expect(refused.body.message).toMatch(/https:\/\//);
    }
    // Nothing of the refused edits was written.
    expect((await ctx.get(`${API}/admin/task/detail?id=${id}`, { token: admin })).body.data.links).toEqual({
      en_US: 'https://example.com/en',
      pa_IN: 'https://example.com/pa',
    });

    // A task without links answers null, not an empty string.
    const bare = await ctx.post(`${API}/admin/task/add`, { ...body, links: undefined }, { token: admin });
    expect(findTask(await taskList(user.token), bare.body.data.id)).toMatchObject({ link: null });
  });

  it('shows a limited task only inside its window and refuses it outside', async () => {
    const admin = await ctx.adminToken();
    const start = new Date(Date.now() + 3_600_000);
    const added = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'limited',
        reward: 3,
        titles: { en_US: 'Weekend bonus' },
        verification: INCOME_EVER,
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 3_600_000).toISOString(),
      },
      { token: admin },
    );
    const id = added.body.data.id as number;
    const user = await ctx.newUser();
    expect(findTask(await taskList(user.token), id)).toBeUndefined();
    expect((await finish(user.token, id)).body.key).toBe('task_not_active');
    ctx.advance(3_600_000 + 1000);
    expect(findTask(await taskList(user.token), id)).toMatchObject({ state: 'claimable' });
    ctx.advance(3_600_000);
    expect(findTask(await taskList(user.token), id)).toBeUndefined();
    ctx.advance(-2 * 3_600_000 - 1000);

    const backwards = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'limited',
        reward: 3,
        titles: { en_US: 'x' },
        verification: INCOME_EVER,
        startsAt: start.toISOString(),
        endsAt: start.toISOString(),
      },
      { token: admin },
    );
    expect(backwards).toMatchObject({ status: 400, body: { data: { fields: { endsAt: 'validation_failed' } } } });
  });

  it('edits and deactivates system tasks but never deletes them', async () => {
    const admin = await ctx.adminToken();
    expect(await ctx.post(`${API}/admin/task/delete`, { id: 3 }, { token: admin })).toMatchObject({
      status: 409,
      body: { key: 'system_task_locked' },
    });
    const locked = await ctx.post(`${API}/admin/task/edit`, { id: 9, targetCount: 1 }, { token: admin });
    expect(locked.body.key).toBe('system_task_locked');

    const edited = await ctx.post(`${API}/admin/task/edit`, { id: 10, reward: '250', active: false }, { token: admin });
    expect(edited.body.data).toMatchObject({ id: 10, reward: '250.00', active: false, system: true, targetCount: 4 });
    const user = await ctx.newUser();
    expect(findTask(await taskList(user.token), 10)).toBeUndefined();
    expect((await finish(user.token, 10)).body.key).toBe('task_not_active');

    // Leaving `active` out keeps it as it is.
    const again = await ctx.post(`${API}/admin/task/edit`, { id: 10, sort: 45 }, { token: admin });
    expect(again.body.data).toMatchObject({ active: false, sort: 45, reward: '250.00' });
    const restored = await ctx.post(
      `${API}/admin/task/edit`,
      { id: 10, reward: 200, active: true, sort: 40 },
      { token: admin },
    );
    expect(restored.body.data).toMatchObject({ reward: '200.00', active: true });
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, 'task:10'))
      .orderBy(asc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({ action: 'task.edit', before: { reward: '200.00', active: true } });
  });

  it('validates the add form and guards every admin task route', async () => {
    const admin = await ctx.adminToken();
    const noEnglish = await ctx.post(
      `${API}/admin/task/add`,
      { section: 'hot', reward: 1, titles: { hi_IN: 'x' }, verification: INCOME_EVER },
      { token: admin },
    );
    expect(noEnglish).toMatchObject({ status: 400, body: { key: 'task_title_required' } });
    const badReward = await ctx.post(
      `${API}/admin/task/add`,
      { section: 'hot', reward: '1.234', titles: { en_US: 'x' }, verification: INCOME_EVER },
      { token: admin },
    );
    expect(badReward.body.data.fields).toMatchObject({ reward: 'invalid_amount' });
    const user = await ctx.newUser();
    expect((await ctx.get(`${API}/admin/task/list`, { token: user.token })).status).toBe(403);
    expect((await ctx.get(`${API}/admin/task/list`)).status).toBe(401);
    const list = await ctx.get(`${API}/admin/task/list`, { token: admin });
    expect(list.body.data.items.filter((t: { system: boolean }) => t.system)).toHaveLength(9);
  });
});
