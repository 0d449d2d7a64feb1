import { eq, sql } from 'drizzle-orm';
import { Counter, Histogram, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema';
import { HTTP_DURATION_BUCKETS, httpSeries } from '../src/platform/metrics';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
const TOKEN = 'metrics-secret-0123456789';

/** The value of one sample line of the Prometheus text, or undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name} `)));
  return line ? Number(line.split(' ').at(-1)) : undefined;
}

describe('/metrics without METRICS_TOKEN: loopback only', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });

  it('answers a caller on this machine and refuses others and anything that came through a proxy', async () => {
    expect((await scrape()).statusCode).toBe(200);
    const remote = await scrape({}, '203.0.113.9');
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toMatchObject({ code: 403, key: 'forbidden' });
    expect((await scrape({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
  });

  it('counts requests and latency by route template, not by raw URL', async () => {
    const { token } = await ctx.registerUser();
    await ctx.get(`${API}/user/user/detail`, { token });
    await ctx.get(`${API}/user/user/detail`, { token });
    await ctx.get('/obj/ws/account/9876543210/is-bound', { token });
    const text = (await scrape()).body;
    const detail = '{method="GET",route="/go_user/api/v1/user/user/detail",status="200"}';
    expect(sample(text, 'kamai_http_requests_total', detail)).toBe(2);
    expect(text).toContain('route="/obj/ws/account/:phone/is-bound"');
    expect(text).not.toContain('9876543210');
    expect(
      sample(
        text,
        'kamai_http_request_duration_seconds_count',
        '{method="GET",route="/go_user/api/v1/user/user/detail"}',
      ),
    ).toBe(2);
    expect(text).toContain('kamai_process_resident_memory_bytes');
    // Nothing is waiting for review in this fresh database.
    expect(sample(text, 'kamai_withdrawals_pending')).toBe(0);
  });

  it('reports the ledger check, computed at most once per interval', async () => {
    const user = await ctx.newUser();
    expect(sample((await scrape()).body, 'kamai_ledger_ok')).toBe(1);
    // Break a cached balance behind the ledger's back: the cached figure holds until the interval ends.
    await ctx.db.update(accounts).set({ balance: sql`balance + 1` }).where(eq(accounts.userId, user.id));
    try {
      expect(sample((await scrape()).body, 'kamai_ledger_ok')).toBe(1);
      ctx.advance(61_000);
      const text = (await scrape()).body;
      expect(sample(text, 'kamai_ledger_ok')).toBe(0);
      expect(sample(text, 'kamai_ledger_problems')).toBeGreaterThan(0);
    } finally {
      await ctx.db.update(accounts).set({ balance: sql`balance - 1` }).where(eq(accounts.userId, user.id));
    }
  });
});

describe('/metrics with METRICS_TOKEN and a pending-withdrawals hook', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(
      { METRICS_TOKEN: TOKEN },
      { pendingWithdrawals: async () => ({ count: 3, amount: 45_050n, fee: 0n }) },
    );
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('wants the bearer token from anywhere, loopback included', async () => {
    const get = (authorization?: string) =>
      ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    expect((await get()).json()).toMatchObject({ code: 401, key: 'unauthorized' });
    expect((await get('Bearer wrong-token-0123456789')).statusCode).toBe(401);
    const ok = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
      remoteAddress: '203.0.113.9',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
    expect(sample(ok.body, 'kamai_withdrawals_pending')).toBe(3);
    expect(sample(ok.body, 'kamai_withdrawals_pending_amount_rupees')).toBe(450.5);
  });
});

describe('the HTTP series kept in own numbers (httpSeries)', () => {
  it("prints what prom-client's own Counter and Histogram print for the same answers", async () => {
    const ours = new Registry();
    const http = httpSeries(ours);
    const reference = new Registry();
    const requests = new Counter({
      name: 'kamai_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [reference],
    });
    const duration = new Histogram({
      name: 'kamai_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route template',
      labelNames: ['method', 'route'],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [reference],
    });
    const errors = new Counter({
      name: 'kamai_http_server_errors_total',
      help: 'Answers with a 5xx status, by route template and status (503: database unavailable)',
      labelNames: ['route', 'status'],
      registers: [reference],
    });
    // On a bound, between bounds, above every bound; several routes, methods and statuses.
    const answers: [string, string, number, number][] = [
      ['GET', '/a', 200, 0.001],
      ['GET', '/a', 200, 0.002],
      ['GET', '/a', 404, 0.0031],
      ['POST', '/a', 200, 0.7],
      ['GET', '/b/:id', 500, 11],
      ['GET', '/b/:id', 503, 0.01],
      ['GET', '/b/:id', 200, 2.5],
      ['GET', '/a', 200, 0.3],
    ];
    for (const [method, route, status, seconds] of answers) {
      http.record(method, route, status, seconds);
      requests.inc({ method, route, status: String(status) });
      duration.observe({ method, route }, seconds);
      if (status >= 500) errors.inc({ route, status: String(status) });
    }
    for (const name of [
      'kamai_http_requests_total',
      'kamai_http_request_duration_seconds',
      'kamai_http_server_errors_total',
    ]) {
      expect(await ours.getSingleMetricAsString(name)).toBe(await reference.getSingleMetricAsString(name));
    }
    // Counts keep growing across scrapes (a counter is never reset by reading it).
    http.record('GET', '/a', 200, 0.001);
    expect(sample(await ours.metrics(), 'kamai_http_requests_total', '{method="GET",route="/a",status="200"}')).toBe(4);
    expect(sample(await ours.metrics(), 'kamai_http_request_duration_seconds_count', '{method="GET",route="/a"}')).toBe(
      5,
    );
  });
});
