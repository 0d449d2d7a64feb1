import { CATALOGUE, errorResponsesOf, ROUTE_ERRORS, type RouteDef, type RouteName, routes } from '@kamai/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureRoutes } from '../src/platform/routes';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
let ctx: TestContext;
// biome-ignore lint/suspicious/noExplicitAny: a parsed OpenAPI document
let doc: any;

beforeAll(async () => {
  ctx = await createTestContext({ OTP_SENDS_PER_IP_PER_HOUR: '5000' });
  doc = (await ctx.app.inject({ method: 'GET', url: '/docs/json' })).json();
});
afterAll(async () => {
  await ctx.close();
});

const op = (path: string, method: string) => doc.paths[path.replace(/:(\w+)/g, '{$1}')][method.toLowerCase()];

describe('OpenAPI error responses', () => {
  it('every route documents each status it can answer, with the envelope and its catalogue keys', () => {
    for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
      const responses = op(def.path, def.method).responses;
      for (const [status, keys] of errorResponsesOf(name, def)) {
        const schema = responses[String(status)]?.content['application/json'].schema;
        expect(schema, `${name} ${status}`).toBeDefined();
        expect(schema.required).toEqual(['code', 'message', 'key', 'data']);
        expect(schema.properties.code.const).toBe(status);
        expect(schema.properties.key.enum).toEqual(keys);
        for (const key of keys) expect(CATALOGUE[key]).toBe(status);
      }
      expect(responses['500'], name).toBeDefined();
      expect(responses['503'].headers['Retry-After'], name).toBeDefined();
    }
  });

  it('derives statuses from the route: input 400, sessions 401/403, bodies 413/415, limits 429 with headers', () => {
    const otp = op(`${API}/common/otp/send`, 'POST').responses;
    expect(otp['400'].content['application/json'].schema.properties.key.enum).toEqual(
      expect.arrayContaining(['validation_failed', 'malformed_json', 'target_invalid', 'enter_phone_or_email']),
    );
    expect(otp['401']).toBeUndefined();
    expect(otp['429'].content['application/json'].schema.properties.key.enum).toEqual([
      'otp_resend_wait',
      'otp_rate_limited',
    ]);
    expect(Object.keys(otp['429'].headers)).toEqual(['Retry-After', 'RateLimit']);
    expect(otp['413'].content['application/json'].schema.properties.key.enum).toEqual(['payload_too_large']);
    expect(otp['415'].content['application/json'].schema.properties.key.enum).toEqual(['unsupported_media_type']);

    const admin = op(`${API}/admin/withdraw/review`, 'POST').responses;
    expect(admin['401'].content['application/json'].schema.properties.key.enum).toEqual(['unauthorized']);
    expect(admin['403'].content['application/json'].schema.properties.key.enum).toEqual(
      expect.arrayContaining(['forbidden', 'account_frozen', 'cannot_review_own_withdrawal']),
    );
    expect(admin['404'].content['application/json'].schema.properties.key.enum).toEqual(['withdrawal_not_found']);
    expect(admin['409'].content['application/json'].schema.properties.key.enum).toEqual([
      'withdrawal_state_conflict',
      'second_approver_required',
    ]);
    // A stale review says what the withdrawal is now, who decided it and when.
    expect(admin['409'].content['application/json'].schema.properties.data.properties.current).toMatchObject({
      type: 'object',
      required: ['state', 'by', 'at'],
    });
    expect(op(`${API}/admin/queue/counts`, 'GET').responses['200']).toBeDefined();

    const upload = op(`${API}/admin/tool/upload`, 'POST').responses;
    expect(upload['413'].content['application/json'].schema.properties.key.enum).toEqual([
      'payload_too_large',
      'upload_too_large',
    ]);
    expect(upload['415'].content['application/json'].schema.properties.key.enum).toEqual(
      expect.arrayContaining(['unsupported_media_type', 'upload_type_unsupported', 'upload_type_mismatch']),
    );
    // A read without input still documents 400 (an undecodable path is refused before routing).
    expect(op(`${API}/user/user/detail`, 'GET').responses['400']).toBeDefined();
  });

  it('names only routes of the table in ROUTE_ERRORS', () => {
    for (const name of Object.keys(ROUTE_ERRORS)) expect(routes).toHaveProperty(name);
  });

  it('integers carry a format', () => {
    const schema = op(`${API}/common/otp/send`, 'POST').responses['200'].content['application/json'].schema;
    expect(schema.properties.code.format).toBe('int64');
  });
});

describe('OpenAPI tags', () => {
  it("one tag per feature: all of a feature's routes carry the same one tag, no other feature's routes carry it", () => {
    const features = featureRoutes(ctx.app);
    // Every route of the table is some feature's (checkEveryRoute), each once.
    expect(features.flat().sort()).toEqual(Object.keys(routes).sort());
    const owner = new Map<string, readonly RouteName[]>();
    for (const names of features) {
      const tags = new Set<string>();
      for (const name of names) {
        const opTags: string[] = op(routes[name].path, routes[name].method).tags;
        expect(opTags, name).toHaveLength(1);
        tags.add(opTags[0] ?? '');
      }
      expect([...tags], `one feature's routes: ${names.join(' ')}`).toHaveLength(1);
      const [tag = ''] = tags;
      expect(owner.get(tag), `tag ${tag} on two features`).toBeUndefined();
      owner.set(tag, names);
    }
    // The withdrawals feature's console routes are tagged with it, not with a shared "admin".
    expect(op(`${API}/admin/withdraw/review`, 'POST').tags).toEqual(['withdrawals']);
    expect(op(routes.adminSettingsGet.path, 'GET').tags).toEqual(['settings']);
    expect(owner.size).toBe(features.length);
  });
});

describe('429 answers carry what the document promises', () => {
  it('Retry-After and RateLimit with the seconds of the refusal', async () => {
    const phone = ctx.uniquePhone();
    await ctx.post(`${API}/common/otp/send`, { target: phone, type: 1 });
    ctx.advance(20_000);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${API}/common/otp/send`,
      payload: { target: phone, type: 1 },
    });
    expect(res.statusCode).toBe(429);
    // About 40 s (the test clock moved 20 s; a loaded machine adds real ones): the refusal's own seconds.
    const seconds = res.json().data.seconds as number;
    expect(seconds).toBeGreaterThan(30);
    expect(seconds).toBeLessThanOrEqual(40);
    expect(res.headers['retry-after']).toBe(String(seconds));
    expect(res.headers.ratelimit).toBe(`"default";r=0;t=${seconds}`);
  });

  it('holds on admin routes too', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/obj/otp/sms',
      payload: { target: '9812345678' },
      headers: { authorization: `Bearer ${await ctx.adminToken()}` },
    });
    expect(res.statusCode).toBe(200);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/obj/otp/sms',
      payload: { target: '9812345678' },
      headers: { authorization: `Bearer ${await ctx.adminToken()}` },
    });
    expect(again.statusCode).toBe(429);
    expect(again.json().key).toBe('otp_resend_wait');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
  });
});
