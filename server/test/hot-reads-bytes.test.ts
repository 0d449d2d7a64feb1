import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings, taskProofs, tasks, users } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';

/**
 * The two hot reads answer the same bytes as before they were made lean (their own mapper instead of
 * drizzle's, the locale picked in SQL, times written by PostgreSQL): every answer below is compared,
 * byte for byte, with `__snapshots__/hot-reads-bytes.txt`, recorded from the build before that change.
 * The same file serves both engines, so they must also agree with each other. The data is fixed (ids,
 * invite code, times with microseconds), so nothing in the answers depends on when the test runs.
 */
const API = '/go_user/api/v1';
let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const user = await ctx.newUser();
  token = user.token;
  await ctx.db
    .update(users)
    .set({
      username: '919876500001',
      inviteCode: 'BYTES001',
      createdAt: sql`'2026-01-02 03:04:05.678912+00'::timestamptz` as unknown as Date,
    })
    .where(eq(users.id, user.id));
  const at = (text: string) => sql`${text}::timestamptz` as unknown as Date;
  // Operator tasks: texts missing or empty in some locales, times with microseconds, both kinds of
  // verification, and conditions that need the second query's facts.
  const [proofTask, screenshotTask, incomeTask, linkedTask, emptyTask] = await ctx.db
    .insert(tasks)
    .values([
      {
        section: 'hot',
        kind: 'custom',
        titles: { en_US: 'Follow us', hi_IN: 'हमें फ़ॉलो करें', zh_CN: '' },
        descriptions: { en_US: 'Send a link to your follow.', gu_IN: '' },
        reward: 1234n,
        startsAt: at('2026-01-01 00:00:00.123999+00'),
        endsAt: at('2099-12-31 23:59:59.999999+00'),
        sort: 5,
        verification: { kind: 'proof', proof: 'link' },
      },
      {
        section: 'hot',
        kind: 'custom',
        titles: { en_US: 'Post a screenshot "quoted" \\ and <tagged>' },
        descriptions: {},
        reward: 99n,
        sort: 6,
        verification: { kind: 'proof', proof: 'screenshot' },
      },
      {
        section: 'limited',
        kind: 'custom',
        titles: { en_US: 'Earn a rupee', pa_IN: 'ਇੱਕ ਰੁਪਿਆ ਕਮਾਓ' },
        descriptions: { en_US: 'Any income counts.', pa_IN: 'ਕੋਈ ਵੀ ਆਮਦਨ ਗਿਣੀ ਜਾਂਦੀ ਹੈ।' },
        reward: 100000n,
        sort: 1,
        verification: { kind: 'automatic', condition: { type: 'income', amount: '1.00', days: 30 } },
      },
      {
        section: 'limited',
        kind: 'custom',
        titles: { en_US: 'Link two numbers', mr_IN: 'दोन नंबर जोडा' },
        descriptions: { en_US: 'Online ones.' },
        reward: 5000n,
        sort: 2,
        verification: { kind: 'automatic', condition: { type: 'linked_accounts', count: 2, online: true } },
      },
      {
        section: 'friends',
        kind: 'custom',
        titles: { en_US: '' },
        descriptions: { en_US: '' },
        reward: 1n,
        sort: 99,
        verification: { kind: 'automatic', condition: { type: 'invites', count: 3, qualified: true } },
      },
    ])
    .returning();
  // Not listed: inactive, deleted, not started, ended.
  await ctx.db.insert(tasks).values([
    { section: 'hot', kind: 'custom', titles: { en_US: 'Off' }, reward: 1n, active: false },
    { section: 'hot', kind: 'custom', titles: { en_US: 'Gone' }, reward: 1n, deletedAt: at('2026-01-01 00:00+00') },
    { section: 'hot', kind: 'custom', titles: { en_US: 'Later' }, reward: 1n, startsAt: at('2099-01-01 00:00+00') },
    { section: 'hot', kind: 'custom', titles: { en_US: 'Over' }, reward: 1n, endsAt: at('2026-01-01 00:00+00') },
  ]);
  if (!proofTask || !screenshotTask || !incomeTask || !linkedTask || !emptyTask) throw new Error('tasks not made');
  await ctx.db.insert(taskProofs).values([
    {
      userId: user.id,
      taskId: proofTask.id,
      state: 'rejected',
      link: 'https://example.com/old',
      reason: 'Not a follow',
      createdAt: at('2026-02-03 04:05:06.789123+00'),
    },
    {
      userId: user.id,
      taskId: proofTask.id,
      state: 'pending',
      link: 'https://example.com/new',
      createdAt: at('2026-02-04 04:05:06.000001+00'),
    },
    {
      userId: user.id,
      taskId: screenshotTask.id,
      state: 'rejected',
      imageUrl: '/uploads/proof.png',
      reason: null,
      createdAt: at('2026-02-05 00:00:00+00'),
    },
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

/** Every answer of the scenario, as status and raw body, one per line. */
async function answers(label: string) {
  const lines: string[] = [];
  const read = async (name: string, path: string, headers: Record<string, string>) => {
    const res = await ctx.app.inject({ method: 'GET', url: `${API}${path}`, headers });
    // The request id of a refusal is new each time; everything else must match.
    const body = res.body.replace(/"requestId":"[^"]*"/, '"requestId":"(any)"');
    lines.push(`${label} ${name} ${res.statusCode} ${body}`);
  };
  const bearer = { authorization: `Bearer ${token}` };
  await read('user/detail', '/user/user/detail', bearer);
  await read('user/detail hi_IN', '/user/user/detail', { ...bearer, 'accept-language': 'hi_IN' });
  for (const lang of [undefined, 'hi_IN', 'zh-CN,zh;q=0.9', 'gu_IN', 'pa_IN', 'mr_IN', 'fr_FR']) {
    await read(
      `task/list ${lang ?? '(none)'}`,
      '/user/task/list',
      lang ? { ...bearer, 'accept-language': lang } : bearer,
    );
  }
  for (const path of ['/user/user/detail', '/user/task/list']) {
    await read(`${path} no token`, path, {});
    await read(`${path} unknown token`, path, { authorization: 'Bearer not-a-session' });
    await read(`${path} not bearer`, path, { authorization: `Basic ${token}` });
  }
  return lines;
}

describe('the hot reads answer the same bytes', () => {
  it('for user/detail and task/list, in every locale, with and without a video, and when refused', async () => {
    const lines = await answers('no video:');
    // With a video the introduction task shows.
    await ctx.db
      .update(settings)
      .set({ value: sql`jsonb_set(${settings.value}, '{videoUrl}', '"https://example.com/intro.mp4"')` })
      .where(eq(settings.key, 'intro'));
    lines.push(...(await answers('video:')));
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('__snapshots__/hot-reads-bytes.txt');
  });
});
