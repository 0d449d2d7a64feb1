import { translate } from '@kamai/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, pushSubscriptions, settings } from '../src/db/schema';
import { loadConfig } from '../src/platform/config';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, review, withdraw } from './payout-helpers';
import { browserSubscription, startFakePushService, verifyVapid } from './push-fake';

const SUBSCRIBE = `${API}/user/push/subscribe`;
const UNSUBSCRIBE = `${API}/user/push/unsubscribe`;
const KEY = `${API}/common/push/key`;

let fake: Awaited<ReturnType<typeof startFakePushService>>;
let ctx: TestContext;
let endpointSeq = 0;

beforeAll(async () => {
  fake = await startFakePushService();
  ctx = await createTestContext({ PUSH_ALLOWED_ORIGINS: fake.origin, VAPID_SUBJECT: 'mailto:ops@kamai.example' });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.received.length = 0;
});

function newEndpoint() {
  endpointSeq += 1;
  return `${fake.origin}/push/${endpointSeq}-${Date.now()}`;
}

/** A user whose browser subscribed in `lang`; answers the user, the browser and its endpoint's path. */
async function subscribed(lang = 'en_US', rupees = 0) {
  const user = rupees > 0 ? await payee(ctx, rupees) : await ctx.newUser();
  const browser = browserSubscription(newEndpoint());
  const res = await ctx.post(SUBSCRIBE, browser.json, { token: user.token, lang });
  expect(res.status).toBe(200);
  expect(res.body.key).toBe('push_subscribed');
  return { user, browser, path: new URL(browser.json.endpoint).pathname };
}

/** Runs the jobs worker until nothing is due, and answers what reached the fake for `path` meanwhile. */
async function deliveredTo(path: string) {
  const start = fake.received.length;
  await ctx.worker.jobs.runDue();
  return fake.received.slice(start).filter((r) => r.path === path);
}

async function subscriptionCount(userId: number) {
  return (await ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))).length;
}

describe('VAPID keys', () => {
  it('are generated once, kept in settings and served to the browser', async () => {
    const first = await ctx.get(KEY);
    expect(first.status).toBe(200);
    expect(first.body.data.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const [row] = await ctx.db.select().from(settings).where(eq(settings.key, 'vapid_keys'));
    expect(row?.value).toMatchObject({ publicKey: first.body.data.publicKey, privateKey: expect.any(String) });
    expect((await ctx.get(KEY)).body.data.publicKey).toBe(first.body.data.publicKey);
  });

  it('come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, and refuse one without the other', async () => {
    const bad = { VAPID_PUBLIC_KEY: 'x'.repeat(87), VAPID_PRIVATE_KEY: 'short' };
    expect(() => loadConfig(bad)).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ VAPID_SUBJECT: 'ops@kamai.example' })).toThrow(/VAPID_SUBJECT/);
    expect(() => loadConfig({ PUSH_ALLOWED_ORIGINS: 'https://fcm.googleapis.com/fcm/send' })).toThrow(
      /PUSH_ALLOWED_ORIGINS/,
    );
    expect(() => loadConfig({ PUSH_ALLOWED_ORIGINS: 'https://*.com' })).toThrow(/PUSH_ALLOWED_ORIGINS/);
  });
});

describe('subscribe', () => {
  const refused = [
    'http://127.0.0.1/push/1',
    'http://127.0.0.1:6379/',
    'http://localhost:8080/go_user/api/v1/admin/user/list',
    'http://169.254.169.254/latest/meta-data/',
    'https://10.0.0.7/push',
    'http://[::1]:5432/',
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com.attacker.example/fcm/send/abc',
    'file:///etc/passwd',
  ];
  it.each(refused)('refuses %s before sending anything', async (endpoint) => {
    const user = await ctx.newUser();
    const body = { ...browserSubscription(newEndpoint()).json, endpoint };
    const res = await ctx.post(SUBSCRIBE, body, { token: user.token, lang: 'hi_IN' });
    expect(res.status).toBe(400);
    expect(['push_endpoint_not_allowed', 'validation_failed']).toContain(res.body.key);
    expect(await subscriptionCount(user.id)).toBe(0);
    expect(fake.received).toHaveLength(0);
  });

  it('answers the catalogue key in the caller language for an origin that is not allowed', async () => {
    const user = await ctx.newUser();
    const port = Number(new URL(fake.origin).port);
    const body = { ...browserSubscription(newEndpoint()).json, endpoint: `http://127.0.0.1:${port + 1}/push/x` };
    const res = await ctx.post(SUBSCRIBE, body, { token: user.token, lang: 'hi_IN' });
    expect(res.body).toMatchObject({
      code: 400,
      key: 'push_endpoint_not_allowed',
      message: translate('hi_IN', 'push_endpoint_not_allowed'),
    });
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret, and anonymous callers', async () => {
    const user = await ctx.newUser();
    const good = browserSubscription(newEndpoint()).json;
    const shortKey = { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } };
    expect((await ctx.post(SUBSCRIBE, shortKey, { token: user.token })).body.key).toBe('validation_failed');
    const longAuth = { ...good, keys: { ...good.keys, auth: `${good.keys.auth}AAAA` } };
    expect((await ctx.post(SUBSCRIBE, longAuth, { token: user.token })).body.key).toBe('validation_failed');
    expect((await ctx.post(SUBSCRIBE, good)).status).toBe(401);
  });

  it('moves an endpoint to whoever subscribes it last, keeps 10 per user, and unsubscribes only its own', async () => {
    const { user, browser } = await subscribed();
    const other = await ctx.newUser();
    expect((await ctx.post(UNSUBSCRIBE, { endpoint: browser.json.endpoint }, { token: other.token })).status).toBe(200);
    expect(await subscriptionCount(user.id)).toBe(1);

    expect((await ctx.post(SUBSCRIBE, browser.json, { token: other.token })).status).toBe(200);
    expect(await subscriptionCount(user.id)).toBe(0);
    expect(await subscriptionCount(other.id)).toBe(1);

    for (let i = 0; i < 12; i++) {
      ctx.advance(1000);
      await ctx.post(SUBSCRIBE, browserSubscription(newEndpoint()).json, { token: other.token });
    }
    const kept = await ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, other.id));
    expect(kept).toHaveLength(10);
    expect(kept.map((k) => k.endpoint)).not.toContain(browser.json.endpoint);

    const last = kept.at(-1)?.endpoint ?? '';
    expect((await ctx.post(UNSUBSCRIBE, { endpoint: last }, { token: other.token })).body.key).toBe(
      'push_unsubscribed',
    );
    expect(await subscriptionCount(other.id)).toBe(9);
  });
});

describe('sending', () => {
  it('pushes each withdrawal state change, encrypted, with VAPID, in the language the device subscribed in', async () => {
    const { user, browser, path } = await subscribed('hi_IN', 500);
    const created = await withdraw(ctx, user.token, { amount: 200 });
    expect(await deliveredTo(path)).toHaveLength(0);

    expect((await review(ctx, created.body.data.id, 'approve')).status).toBe(200);
    // Nothing is sent inside the approval's transaction: the push waits for the worker.
    expect(fake.received).toHaveLength(0);
    // Approved, then processing once the payout job has handed it to the gateway.
    const pushes = await deliveredTo(path);
    expect(pushes.map((p) => JSON.parse(browser.decrypt(p.body)).title)).toEqual([
      translate('hi_IN', 'notification_withdrawal_approved_title'),
      translate('hi_IN', 'notification_withdrawal_processing_title'),
    ]);

    const publicKey = (await ctx.get(KEY)).body.data.publicKey;
    const first = pushes[0];
    if (!first) throw new Error('no push');
    expect(first.headers['content-encoding']).toBe('aes128gcm');
    expect(first.headers.ttl).toBe('86400');
    expect(first.headers.urgency).toBe('high');
    const vapid = verifyVapid(first.headers.authorization, fake.origin, Date.now());
    expect(vapid).toMatchObject({ k: publicKey, sub: 'mailto:ops@kamai.example' });
    const message = JSON.parse(browser.decrypt(first.body));
    expect(message).toEqual({
      title: translate('hi_IN', 'notification_withdrawal_approved_title'),
      body: translate('hi_IN', 'notification_withdrawal_approved_body', { amount: '200.00' }),
      url: '/List4',
      tag: `withdrawal:${created.body.data.id}`,
    });
    // Running the worker again sends nothing more: each push is one job, done once.
    expect(await deliveredTo(path)).toHaveLength(0);
  });

  it('pushes a rejection with its reason', async () => {
    const { user, browser, path } = await subscribed('en_US', 300);
    const created = await withdraw(ctx, user.token, { amount: 150 });
    await review(ctx, created.body.data.id, 'reject', 'Account name does not match');
    const [push] = await deliveredTo(path);
    if (!push) throw new Error('no push');
    expect(JSON.parse(browser.decrypt(push.body)).body).toBe(
      translate('en_US', 'notification_withdrawal_rejected_body', {
        amount: '150.00',
        reason: 'Account name does not match',
      }),
    );
  });

  it('pushes a task reward credit', async () => {
    const { user, browser, path } = await subscribed('zh_CN');
    const answers = { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 };
    const res = await ctx.post(`${API}/user/survey/submit`, answers, { token: user.token });
    expect(res.status).toBe(200);
    const [push] = await deliveredTo(path);
    if (!push) throw new Error('no push');
    expect(JSON.parse(browser.decrypt(push.body))).toMatchObject({
      title: translate('zh_CN', 'notification_reward_credited_title'),
      body: translate('zh_CN', 'notification_reward_credited_body', { amount: res.body.data.reward }),
      url: '/List2',
    });
  });

  it('pushes a new notice to every subscribed device when it is published, a scheduled one at its time', async () => {
    const a = await subscribed('mr_IN');
    const b = await subscribed('en_US');
    const token = await ctx.adminToken();
    const now = await ctx.post(
      `${API}/admin/notice/add`,
      { title: 'Diwali bonus', body: 'Details inside', published: true },
      { token },
    );
    expect(now.status).toBe(200);
    const [toA] = await deliveredTo(a.path);
    const toB = fake.received.filter((r) => r.path === b.path);
    expect(toB).toHaveLength(1);
    expect(JSON.parse(b.browser.decrypt(toB[0]?.body ?? Buffer.alloc(0))).title).toBe('New notice');
    if (!toA) throw new Error('no push');
    expect(JSON.parse(a.browser.decrypt(toA.body))).toMatchObject({
      title: translate('mr_IN', 'push_new_notice'),
      body: 'Diwali bonus',
      url: '/List1',
    });
    expect(toA.headers.urgency).toBe('normal');

    const at = new Date(ctx.now().getTime() + 3_600_000).toISOString();
    const later = await ctx.post(
      `${API}/admin/notice/add`,
      { title: 'Maintenance tonight', body: 'Short pause', published: true, publishedAt: at },
      { token },
    );
    expect(later.status).toBe(200);
    expect(await deliveredTo(b.path)).toHaveLength(0);
    ctx.advance(3_600_000 + 1000);
    const [scheduled] = await deliveredTo(b.path);
    if (!scheduled) throw new Error('no push');
    expect(JSON.parse(b.browser.decrypt(scheduled.body)).body).toBe('Maintenance tonight');

    // Editing a published notice's text does not push it again.
    await ctx.post(`${API}/admin/notice/edit`, { id: now.body.data.id, body: 'Fixed a typo' }, { token });
    expect(await deliveredTo(b.path)).toHaveLength(0);
  });

  it.each([404, 410])('deletes a subscription the push service answers %i for, without retrying', async (status) => {
    const { user, path } = await subscribed('en_US', 300);
    fake.answer(path, status, status);
    const created = await withdraw(ctx, user.token, { amount: 120 });
    await review(ctx, created.body.data.id, 'approve');
    // Approved reaches a dead subscription; "processing" finds it gone (or dead too): at most two tries.
    expect((await deliveredTo(path)).length).toBeGreaterThanOrEqual(1);
    expect(await subscriptionCount(user.id)).toBe(0);
    ctx.advance(600_000);
    expect(await deliveredTo(path)).toHaveLength(0);
  });

  it('retries a push the service could not take (5xx, 429) and delivers it once', async () => {
    const { user, browser, path } = await subscribed('en_US', 300);
    fake.answer(path, 503, 429);
    const created = await withdraw(ctx, user.token, { amount: 110 });
    await review(ctx, created.body.data.id, 'reject', 'Duplicate request');
    expect(await deliveredTo(path)).toHaveLength(1);
    const [job] = await ctx.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'push.deliver'), like(jobs.dedupeKey, `push:withdrawal:${created.body.data.id}:%`)));
    expect(job).toMatchObject({ attempts: 1, doneAt: null, lastError: expect.stringContaining('503') });
    ctx.advance(1_000);
    expect(await deliveredTo(path)).toHaveLength(1);
    ctx.advance(2_000);
    const [third] = await deliveredTo(path);
    expect(JSON.parse(browser.decrypt(third?.body ?? Buffer.alloc(0))).tag).toBe(`withdrawal:${created.body.data.id}`);
    ctx.advance(600_000);
    expect(await deliveredTo(path)).toHaveLength(0);
    expect(await subscriptionCount(user.id)).toBe(1);
  });
  it('waits for the Retry-After of a 429 before trying again', async () => {
    const { user, path } = await subscribed('en_US', 300);
    fake.answer(path, { status: 429, retryAfter: '120' });
    const created = await withdraw(ctx, user.token, { amount: 115 });
    await review(ctx, created.body.data.id, 'reject', 'Duplicate request');
    expect(await deliveredTo(path)).toHaveLength(1);
    // The usual backoff (1 s, then 2 s) has passed, the service's 120 s have not: nothing sent.
    ctx.advance(60_000);
    expect(await deliveredTo(path)).toHaveLength(0);
    ctx.advance(61_000);
    expect(await deliveredTo(path)).toHaveLength(1);
  });
});

describe('what the sender refuses to do', () => {
  it('never follows a redirect from a push service', async () => {
    const { user, path } = await subscribed('en_US', 300);
    fake.answer(path, 307, 307);
    const created = await withdraw(ctx, user.token, { amount: 105 });
    await review(ctx, created.body.data.id, 'reject', 'Duplicate request');
    expect(await deliveredTo(path)).toHaveLength(1);
    expect(fake.received.filter((r) => r.path === '/redirected')).toHaveLength(0);
    // Not a retryable answer and not "gone": logged, the subscription kept.
    expect(await subscriptionCount(user.id)).toBe(1);
    expect(ctx.logs.some((line) => line.includes('push refused by the push service'))).toBe(true);
  });

  it('does not send to a stored endpoint outside the allowed origins, and deletes it', async () => {
    const user = await payee(ctx, 300);
    const outside = { ...browserSubscription('http://127.0.0.1:9/').json.keys };
    await ctx.db.insert(pushSubscriptions).values({
      userId: user.id,
      endpoint: 'http://127.0.0.1:9/push/stored-before-the-list-changed',
      p256dh: outside.p256dh,
      auth: outside.auth,
      locale: 'en_US',
    });
    const start = fake.received.length;
    const created = await withdraw(ctx, user.token, { amount: 100 });
    await review(ctx, created.body.data.id, 'reject', 'Duplicate request');
    await ctx.worker.jobs.runDue();
    expect(fake.received.length).toBe(start);
    expect(await subscriptionCount(user.id)).toBe(0);
  });
});

describe('default allowed origins', () => {
  it('accept the browsers push services over https and nothing else', async () => {
    const strict = await createTestContext();
    try {
      const user = await strict.newUser();
      const keys = browserSubscription('x').json.keys;
      const accepted = [
        'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
        'https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB',
        'https://web.push.apple.com/QGx5Zm9v',
        'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
      ];
      for (const endpoint of accepted) {
        const res = await strict.post(SUBSCRIBE, { endpoint, keys }, { token: user.token });
        expect(res.body.key, endpoint).toBe('push_subscribed');
      }
      const refused = [
        fake.origin,
        'http://fcm.googleapis.com/fcm/send/x',
        'https://fcm.googleapis.com:8443/fcm/send/x',
        'https://user:pw@fcm.googleapis.com/fcm/send/x',
        'https://notify.windows.com/w/?token=x',
        'https://evilnotify.windows.com/w/?token=x',
        'https://push.apple.com.attacker.example/x',
        'https://metadata.google.internal/computeMetadata/v1/',
      ];
      for (const endpoint of refused) {
        const res = await strict.post(SUBSCRIBE, { endpoint, keys }, { token: user.token });
        expect(res.body.key, endpoint).toBe('push_endpoint_not_allowed');
      }
    } finally {
      await strict.close();
    }
  });
});
