import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCALES, MESSAGES } from '@kamai/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config';
import { API_SECURITY_HEADERS } from '../src/platform/http-policy';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('the envelope', () => {
  it('answers an unknown API route with 404 in the envelope', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${API}/user/nothing-here` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, key: 'route_not_found', message: 'This address does not exist' });
    expect(res.json().data.requestId).toBe(res.headers['x-request-id']);
  });

  it('answers malformed JSON with 400 and no stack', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${API}/common/user/login`,
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "x",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, key: 'malformed_json' });
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${API}/common/user/login`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(1024 * 1024), password: 'y' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 413, key: 'payload_too_large' });
  });

  it('answers a missing body with the field messages', async () => {
    const res = await ctx.post(`${API}/common/user/login`, {});
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual({ username: 'enter_phone_or_email', password: 'enter_password' });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${API}/common/user/login`,
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(res.json()).toMatchObject({ code: 415, key: 'unsupported_media_type' });
  });

  it('hides the text of an unexpected error', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `${API}/user/user/detail`,
      headers: { authorization: 'Bearer x' },
    });
    expect(res.json()).toMatchObject({ code: 401, key: 'unauthorized' });
  });
});

describe('messages in the request language', () => {
  it.each(LOCALES)('%s', async (locale) => {
    const res = await ctx.post(`${API}/common/user/login`, { username: '', password: '' }, { lang: locale });
    expect(res.body.message).toBe(MESSAGES[locale].enter_phone_or_email);
  });

  it.each([
    ['hi-IN', 'hi_IN'],
    ['hi', 'hi_IN'],
    ['fr-FR,fr;q=0.9,mr-IN;q=0.8,en;q=0.5', 'mr_IN'],
    ['en;q=0.3, zh-CN;q=0.9', 'zh_CN'],
    ['de-DE', 'en_US'],
    ['pa-IN;q=0', 'en_US'],
  ] as const)('%s → %s', async (header, locale) => {
    const res = await ctx.post(`${API}/common/user/login`, { username: 'x', password: 'y' }, { lang: header });
    expect(res.body.message).toBe(MESSAGES[locale].incorrect_username_or_password);
  });
});

describe('health and docs', () => {
  it('answers liveness and readiness', async () => {
    expect((await ctx.get('/obj/test/t1')).body).toMatchObject({ code: 200, data: { status: 'ok' } });
    expect((await ctx.get('/obj/test/t2')).body).toMatchObject({ code: 200, data: { status: 'ok', database: 'up' } });
  });

  it('serves OpenAPI 3.1 with every route of the table', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain(`${API}/common/user/register`);
    expect(doc.paths[`${API}/user/user/detail`].get.security).toEqual([{ bearer: [] }]);
    const page = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });
});

/** helmet's headers a page carries and an API answer does not (docs/decisions/http-headers.md). */
const PAGE_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe("security headers: the API set on JSON answers, helmet's full set on pages", () => {
  let pages: TestContext;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kamai-headers-'));
    const html = '<!doctype html><html><body>app</body></html>';
    for (const app of ['web', 'admin']) {
      mkdirSync(join(root, app), { recursive: true });
      writeFileSync(join(root, app, 'index.html'), html);
    }
    pages = await createTestContext({}, { webRoots: { web: join(root, 'web'), admin: join(root, 'admin') } });
  });
  afterAll(async () => {
    await pages.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['the liveness route', '/obj/test/t1', 200],
    ['an authenticated route without a token', `${API}/user/user/detail`, 401],
    ['an unknown API route', `${API}/user/nothing-here`, 404],
  ])('%s carries exactly the API set', async (_name, url, status) => {
    const res = await pages.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers[name]).toBe(value);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    for (const name of PAGE_ONLY_HEADERS) expect(res.headers[name]).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it.each([
    ['the app', '/'],
    ['a client-side route of the app', '/index/home'],
    ['the console', '/admin/'],
    ['the API documentation', '/docs'],
  ])("%s carries helmet's full set with the page CSP", async (_name, url) => {
    const res = await pages.app.inject({ method: 'GET', url });
    // The documentation's address may redirect to its page; the others are the apps' index.html.
    if (url === '/docs') expect([200, 302]).toContain(res.statusCode);
    else expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const name of PAGE_ONLY_HEADERS) expect(res.headers[name]).toBeDefined();
  });
});

describe('configuration', () => {
  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: must be a port number/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ INVITE_CODE_REQUIRED: 'maybe' })).toThrow(/INVITE_CODE_REQUIRED/);
    expect(loadConfig({}).PORT).toBe(8080);
  });
});
