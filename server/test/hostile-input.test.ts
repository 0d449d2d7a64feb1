import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

/** Regression tests of the 500s the route fuzzer (fuzz.test.ts) found, one request each. */
const API = '/go_user/api/v1';
let ctx: TestContext;
let dataDir: string;
let admin: string;
let user: string;
let userId: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-hostile-'));
  ctx = await createTestContext({ DATA_DIR: dataDir });
  admin = await ctx.adminToken();
  const someone = await ctx.newUser();
  user = someone.token;
  userId = someone.id;
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: string, type?: string) {
  const res = await ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('requests the router refuses before a route', () => {
  it('answers an undecodable path in the envelope', async () => {
    const res = await call('GET', '/obj/ws/account/%zz/is-bound', user);
    expect(res).toMatchObject({ status: 400, body: { code: 400, key: 'validation_failed' } });
  });

  it('answers a path parameter past the length limit in the envelope', async () => {
    const res = await call('PUT', `/obj/ws/account/settlement/${'9'.repeat(300)}`, user, '{}', 'application/json');
    expect(res).toMatchObject({ status: 400, body: { code: 400, key: 'validation_failed' } });
  });
});

describe('values PostgreSQL cannot take', () => {
  it('refuses a NUL character in a body field, naming the field', async () => {
    const res = await call(
      'POST',
      `${API}/admin/ws/complete`,
      admin,
      JSON.stringify({ phone: '9876543210', qrId: 'a\u0000b' }),
      'application/json',
    );
    expect(res).toMatchObject({
      status: 400,
      body: { key: 'validation_failed', data: { fields: { qrId: 'validation_failed' } } },
    });
  });

  it('refuses a lone UTF-16 surrogate in a body field or key, which jsonb cannot take (a 500 from the audit row before)', async () => {
    // The fuzzer's counterexample: a manual credit whose remark is "\ud800" (a duplicate key, so the last wins).
    const body = `{"userId":${userId},"amount":"1.00","remark":"ok","remark":"\\ud800"}`;
    const res = await call('POST', `${API}/admin/revenue/add`, admin, body, 'application/json');
    expect(res).toMatchObject({
      status: 400,
      body: { key: 'validation_failed', data: { fields: { remark: 'validation_failed' } } },
    });
    // A trailing low surrogate, and one in a key.
    const low = await call(
      'POST',
      `${API}/admin/revenue/add`,
      admin,
      `{"userId":${userId},"amount":"1.00","remark":"a\\udc00"}`,
      'application/json',
    );
    expect(low).toMatchObject({ status: 400, body: { data: { fields: { remark: 'validation_failed' } } } });
    const key = await call(
      'POST',
      `${API}/admin/revenue/add`,
      admin,
      `{"userId":${userId},"amount":"1.00","\\ud83d":"x"}`,
      'application/json',
    );
    expect(key).toMatchObject({ status: 400, body: { key: 'validation_failed' } });
    // A well-formed pair (an emoji) is text like any other.
    const emoji = await call(
      'POST',
      `${API}/admin/revenue/add`,
      admin,
      `{"userId":${userId},"amount":"1.00","remark":"\\ud83d\\ude00"}`,
      'application/json',
    );
    expect(emoji.status).toBe(200);
  });

  it('refuses a NUL character in the query', async () => {
    const res = await call('GET', `${API}/admin/user/list?q=a%00b`, admin);
    expect(res).toMatchObject({ status: 400, body: { data: { fields: { q: 'validation_failed' } } } });
  });

  it('refuses a deeply nested body without walking it recursively', async () => {
    const deep = `{"titles":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await call('POST', `${API}/admin/task/add`, admin, deep, 'application/json');
    expect(res).toMatchObject({ status: 400, body: { code: 400 } });
  });

  it.each([
    ['user list', `${API}/admin/user/list?joinedFrom=0000-02-04`],
    ['audit list', `${API}/admin/audit/list?to=0000-07-24T00:00:00.123Z`],
    ['users CSV', `${API}/admin/export/users.csv?from=0000-10-02T04:00:00Z`],
  ])('refuses year 0000 in the %s filter', async (_name, url) => {
    const res = await call('GET', url, admin);
    expect(res).toMatchObject({ status: 400, body: { code: 400, key: 'validation_failed' } });
  });

  it('refuses a task window in year 0000', async () => {
    const body = {
      section: 'hot',
      reward: 1,
      titles: { en_US: 'Old' },
      startsAt: '0000-01-01T00:00:00Z',
      verification: { kind: 'proof', proof: 'link' },
    };
    const res = await call('POST', `${API}/admin/task/add`, admin, JSON.stringify(body), 'application/json');
    expect(res).toMatchObject({ status: 400, body: { data: { fields: { startsAt: 'validation_failed' } } } });
  });
});

describe('forged cursors', () => {
  it.each([
    { pinned: true, atUs: '0', rank: -1_251_101_551_785_271, id: 2 },
    { pinned: false, atUs: '99999999999999999999', rank: 1, id: 2 },
    { pinned: false, atUs: '0', rank: 1, id: -5 },
  ])('refuses an inbox cursor outside what the server writes: %o', async (value) => {
    const res = await call('GET', `${API}/common/notice/list?cursor=${cursor(value)}`, user);
    expect(res).toMatchObject({ status: 400, body: { data: { fields: { cursor: 'validation_failed' } } } });
  });

  it('refuses a negative row id in a list cursor', async () => {
    const res = await call('GET', `${API}/user/balance/list?cursor=${cursor(-1)}`, user);
    expect(res).toMatchObject({ status: 400, body: { data: { fields: { cursor: 'validation_failed' } } } });
  });
});

describe('broken multipart uploads', () => {
  it.each([
    ['a part cut off in its headers', '--b\r\nContent-Disposition: form-data; name="file"'],
    ['no parts at all', 'garbage'],
  ])('answers %s with 400 in the envelope', async (_name, payload) => {
    const res = await call('POST', `${API}/admin/tool/upload`, admin, payload, 'multipart/form-data; boundary=b');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400 });
  });
});
