import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
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

const answers = { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 };

async function taskState(token: string, id: number) {
  const res = await ctx.get(`${API}/user/task/list`, { token });
  return res.body.data.sections
    .flatMap((s: { items: { id: number; state: string }[] }) => s.items)
    .find((i: { id: number }) => i.id === id)?.state;
}

describe('survey', () => {
  it('stores the answers once and credits task 3 in the same request', async () => {
    const user = await ctx.newUser();
    expect((await ctx.get(`${API}/user/survey/detail`, { token: user.token })).body.data).toEqual({
      submitted: false,
      answers: null,
      submittedAt: null,
    });
    const first = await ctx.post(`${API}/user/survey/submit`, answers, { token: user.token });
    expect(first).toMatchObject({
      status: 200,
      body: { key: 'survey_submitted', data: { reward: '10.00', balance: '15.00' } },
    });
    expect(await taskState(user.token, 3)).toBe('completed');

    const again = await ctx.post(
      `${API}/user/survey/submit`,
      { ...answers, a: 1 },
      { token: user.token, lang: 'hi_IN' },
    );
    expect(again).toMatchObject({ status: 409, body: { key: 'survey_already_submitted' } });
    expect(again.body.message).not.toBe('You have already submitted the survey');
    expect((await ctx.post(`${API}/user/task/finish`, { taskId: 3 }, { token: user.token })).body.key).toBe(
      'task_already_claimed',
    );

    const detail = await ctx.get(`${API}/user/survey/detail`, { token: user.token });
    expect(detail.body.data).toMatchObject({ submitted: true, answers });
    expect(await ctx.balanceOf(user.token)).toBe('15.00');
  });

  it('names each missing or out-of-range answer', async () => {
    const user = await ctx.newUser();
    const { c: _c, ...withoutC } = answers;
    const missing = await ctx.post(`${API}/user/survey/submit`, withoutC, { token: user.token });
    expect(missing).toMatchObject({
      status: 400,
      body: { key: 'survey_answer_required', data: { fields: { c: 'survey_answer_required' } } },
    });
    const outOfRange = await ctx.post(`${API}/user/survey/submit`, { ...answers, f: 2 }, { token: user.token });
    expect(outOfRange.body.data.fields).toEqual({ f: 'survey_answer_required' });
    expect((await ctx.post(`${API}/user/survey/submit`, answers)).status).toBe(401);
    expect((await ctx.get(`${API}/user/survey/detail`, { token: user.token })).body.data.submitted).toBe(false);
  });
});

describe('introduction', () => {
  it('serves the facts publicly, none until an operator sets them; with no video task 4 is hidden and cannot be claimed', async () => {
    const intro = await ctx.get(`${API}/common/intro/detail`);
    // A fresh install claims no users and no countries (the seeded 3,50,000 in 19 countries are gone).
    expect(intro.body.data).toEqual({
      videoUrl: null,
      videoSeconds: null,
      userCount: null,
      countryCount: null,
      countries: [],
    });
    const user = await ctx.newUser();
    expect(await taskState(user.token, 4)).toBeUndefined();
    const claim = await ctx.post(`${API}/user/task/finish`, { taskId: 4 }, { token: user.token });
    expect(claim.body.key).toBe('task_not_active');
    // The old free path is gone, and reporting progress without a video is refused.
    expect((await ctx.post(`${API}/user/intro/viewed`, {}, { token: user.token })).status).toBe(404);
    const progress = await ctx.post(`${API}/user/intro/progress`, { watchedSeconds: 10 }, { token: user.token });
    expect(progress).toMatchObject({ status: 409, body: { key: 'intro_no_video' } });
    expect(await ctx.balanceOf(user.token)).toBe('5.00');
  });

  it('with a video, task 4 becomes claimable at 80 % played, counted no faster than the wall clock', async () => {
    const admin = await ctx.adminToken();
    const noLength = await ctx.post(`${API}/admin/intro/set`, { videoUrl: '/uploads/intro.mp4' }, { token: admin });
    expect(noLength).toMatchObject({ status: 400, body: { key: 'intro_video_seconds_required' } });
    const set = await ctx.post(
      `${API}/admin/intro/set`,
      { videoUrl: '/uploads/intro.mp4', videoSeconds: 100 },
      { token: admin },
    );
    expect(set.body.data).toMatchObject({ videoUrl: '/uploads/intro.mp4', videoSeconds: 100 });
    try {
      const user = await ctx.newUser();
      const report = (watchedSeconds: unknown) =>
        ctx.post(`${API}/user/intro/progress`, { watchedSeconds }, { token: user.token });
      expect(await taskState(user.token, 4)).toBe('incomplete');

      // The first report starts the clock. Claiming the whole video at once is believed only as far
      // as the time that has passed (plus a little slack for the network).
      expect((await report(0)).body.data).toEqual({ watchedSeconds: 0, requiredSeconds: 80, complete: false });
      ctx.advance(10_000);
      expect((await report(100)).body.data).toMatchObject({ watchedSeconds: 12, complete: false });
      expect(await taskState(user.token, 4)).toBe('incomplete');
      expect((await ctx.post(`${API}/user/task/finish`, { taskId: 4 }, { token: user.token })).body.key).toBe(
        'task_condition_unmet',
      );

      // 60 s later, playing at normal speed: 70 s reported, 70 s believed. A lower report keeps the most.
      ctx.advance(60_000);
      expect((await report(70)).body.data).toMatchObject({ watchedSeconds: 70, complete: false });
      expect((await report(5)).body.data).toMatchObject({ watchedSeconds: 70, complete: false });
      expect(await taskState(user.token, 4)).toBe('incomplete');

      // Never more than the video's length, and nonsense is refused in the envelope.
      expect((await report(-1)).body.key).toBe('validation_failed');
      expect((await report('lots')).body.key).toBe('validation_failed');
      ctx.advance(500_000);
      expect((await report(100_000)).status).toBe(400);
      expect((await report(5000)).body.data).toEqual({ watchedSeconds: 100, requiredSeconds: 80, complete: true });
      expect(await taskState(user.token, 4)).toBe('claimable');
      const done = await ctx.post(`${API}/user/task/finish`, { taskId: 4 }, { token: user.token });
      expect(done.body.data).toEqual({ taskId: 4, reward: '5.00', balance: '10.00' });
      expect(await taskState(user.token, 4)).toBe('completed');
      expect((await ctx.post(`${API}/user/task/finish`, { taskId: 4 }, { token: user.token })).body.key).toBe(
        'task_already_claimed',
      );

      // Another user's clock is their own.
      const other = await ctx.newUser();
      await ctx.post(`${API}/user/intro/progress`, { watchedSeconds: 0 }, { token: other.token });
      const rushed = await ctx.post(`${API}/user/intro/progress`, { watchedSeconds: 90 }, { token: other.token });
      expect(rushed.body.data).toMatchObject({ watchedSeconds: 2, complete: false });
      expect((await ctx.post(`${API}/user/intro/progress`, { watchedSeconds: 1 })).status).toBe(401);
    } finally {
      await ctx.post(`${API}/admin/intro/set`, { videoUrl: '' }, { token: admin });
    }
  });

  it('lets an admin change some facts, keeping the rest, audited', async () => {
    const admin = await ctx.adminToken();
    const set = await ctx.post(
      `${API}/admin/intro/set`,
      { userCount: 400000, videoUrl: '/uploads/intro.mp4', videoSeconds: 90 },
      { token: admin },
    );
    expect(set.body.data).toMatchObject({
      userCount: 400000,
      countryCount: null,
      videoUrl: '/uploads/intro.mp4',
      videoSeconds: 90,
    });
    expect((await ctx.get(`${API}/admin/intro/get`, { token: admin })).body.data).toEqual(set.body.data);
    expect((await ctx.get(`${API}/common/intro/detail`)).body.data.userCount).toBe(400000);
    const cleared = await ctx.post(`${API}/admin/intro/set`, { videoUrl: '' }, { token: admin });
    expect(cleared.body.data).toMatchObject({ videoUrl: null, videoSeconds: null, userCount: 400000 });
    expect((await ctx.post(`${API}/admin/intro/set`, { videoUrl: 'javascript:x' }, { token: admin })).status).toBe(400);
    const countries = await ctx.post(`${API}/admin/intro/set`, { countries: ['in', 'NP'] }, { token: admin });
    expect(countries.body.data.countries).toEqual(['IN', 'NP']);
    expect((await ctx.post(`${API}/admin/intro/set`, { countries: ['India'] }, { token: admin })).status).toBe(400);
    const user = await ctx.newUser();
    expect((await ctx.post(`${API}/admin/intro/set`, { userCount: 1 }, { token: user.token })).status).toBe(403);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'intro.set'));
    // Two from the watching test (set, cleared), three here.
    expect(audits).toHaveLength(5);
    expect(audits[2]).toMatchObject({ before: { userCount: null }, after: { userCount: 400000 } });
    const unset = await ctx.post(`${API}/admin/intro/set`, { userCount: null }, { token: admin });
    expect(unset.body.data).toMatchObject({ userCount: null });
  });
});
