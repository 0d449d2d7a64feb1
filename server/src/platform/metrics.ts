import { timingSafeEqual } from 'node:crypto';
import type { LedgerCheck } from '@kamai/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { sendError } from './error-handler';

/** The path Prometheus scrapes; outside the API's route table (it answers text, not the envelope). */
export const METRICS_PATH = '/metrics';

export interface MetricsSources {
  /**
   * The ledger's invariants and business rules; run at most once every `ledgerCheckSeconds`, the last
   * answer is served between.
   */
  checkLedger: () => Promise<Pick<LedgerCheck, 'ok' | 'problems' | 'rules'>>;
  ledgerCheckSeconds: number;
  /** Withdrawals waiting for review (count, paise); the gauges are absent until the feature supplies it. */
  pendingWithdrawals?: () => Promise<{ count: number; amount: bigint }>;
  /** Payout mismatches (open, all) and withdrawals by state and gateway, read from the tables at each scrape. */
  payoutFigures?: () => Promise<{
    mismatchesOpen: number;
    mismatchesTotal: number;
    states: { state: string; gateway: string; count: number }[];
  }>;
  /** Complaints not closed, and of them those past a deadline (docs/decisions/grievances.md), read at each scrape. */
  complaintFigures?: () => Promise<{ open: number; overdue: number }>;
  /** The PostgreSQL pool's connections (absent on PGlite). */
  pool?: () => { total: number; idle: number; waiting: number };
  now: () => number;
}

/**
 * Prometheus figures of one instance (its own registry, so several apps in one test process do not
 * collide): requests and latency by route template, 5xx, database retries and outages, the rate
 * counters' Redis fallbacks, pending withdrawals and the ledger invariant check.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'kamai_' });

  const http = httpSeries(registry);
  const txRetries = new Counter({
    name: 'kamai_db_transaction_retries_total',
    help: 'Transactions run again after a serialization failure or deadlock, by SQLSTATE',
    labelNames: ['sqlstate'] as const,
    registers: [registry],
  });
  const mismatchesOpened = new Counter({
    name: 'kamai_payout_mismatches_opened_total',
    help: 'Payout mismatches this instance opened (a signed gateway report contradicting a withdrawal), by gateway',
    labelNames: ['gateway'] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'kamai_otp_deliveries_total',
    help: 'Code and message delivery attempts, by channel, provider and outcome (failed: refused or timed out)',
    labelNames: ['channel', 'provider', 'status'] as const,
    registers: [registry],
  });
  const counterFallbacks = new Counter({
    name: 'kamai_rate_counter_fallbacks_total',
    help: 'Rate-limit counts kept in memory because Redis did not answer',
    registers: [registry],
  });

  type Checked = Awaited<ReturnType<MetricsSources['checkLedger']>>;
  let ledger: { at: number; check: Promise<Checked> } | undefined;
  function ledgerCheck(): Promise<Checked> {
    const at = sources.now();
    if (!ledger || at - ledger.at >= sources.ledgerCheckSeconds * 1000) {
      const check = sources.checkLedger();
      ledger = { at, check };
      // A failed check (database down) is not cached: the next scrape tries again.
      check.catch(() => {
        if (ledger?.check === check) ledger = undefined;
      });
    }
    return ledger.check;
  }
  new Gauge({
    name: 'kamai_ledger_ok',
    help: "1 when the ledger's invariants and business rules hold, 0 when any is broken (checked at most every METRICS_LEDGER_CHECK_SECONDS)",
    registers: [registry],
    async collect() {
      // While the database is down the last value stays: a scrape must not turn an outage into "broken".
      const check = await ledgerCheck().catch(() => undefined);
      if (check) this.set(check.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'kamai_ledger_problems',
    help: 'Problems found by the last ledger invariant check',
    registers: [registry],
    async collect() {
      const check = await ledgerCheck().catch(() => undefined);
      if (check) this.set(check.problems.length);
    },
  });
  new Gauge({
    name: 'kamai_ledger_rule_violations',
    help: 'Violations of each business rule of money found by the last ledger check (0 when it holds)',
    labelNames: ['rule'] as const,
    registers: [registry],
    async collect() {
      const check = await ledgerCheck().catch(() => undefined);
      if (!check) return;
      this.reset();
      for (const one of check.rules) this.set({ rule: one.rule }, one.violations);
    },
  });
  new Gauge({
    name: 'kamai_ledger_checked_timestamp_seconds',
    help: 'When the ledger invariant check last ran (Unix time)',
    registers: [registry],
    collect() {
      if (ledger) this.set(ledger.at / 1000);
    },
  });
  const pool = sources.pool;
  if (pool) {
    new Gauge({
      name: 'kamai_db_pool_connections',
      help: 'Connections of the database pool: open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const now = pool();
        this.set({ state: 'total' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
  }
  const pending = sources.pendingWithdrawals;
  if (pending) {
    let last: Promise<{ count: number; amount: bigint }> | undefined;
    const fresh = () => {
      last ??= pending().finally(() => {
        last = undefined;
      });
      return last;
    };
    new Gauge({
      name: 'kamai_withdrawals_pending',
      help: 'Withdrawals waiting for review',
      registers: [registry],
      async collect() {
        const figure = await fresh().catch(() => undefined);
        if (figure) this.set(figure.count);
      },
    });
    new Gauge({
      name: 'kamai_withdrawals_pending_amount_rupees',
      help: 'Total amount of the withdrawals waiting for review, in rupees',
      registers: [registry],
      async collect() {
        const figure = await fresh().catch(() => undefined);
        if (figure) this.set(Number(figure.amount) / 100);
      },
    });
  }

  const payout = sources.payoutFigures;
  if (payout) {
    let last: ReturnType<typeof payout> | undefined;
    const fresh = () => {
      last ??= payout().finally(() => {
        last = undefined;
      });
      return last;
    };
    new Gauge({
      name: 'kamai_payout_mismatches_open',
      help: 'Payout mismatches waiting for an operator (all instances)',
      registers: [registry],
      async collect() {
        const figure = await fresh().catch(() => undefined);
        if (figure) this.set(figure.mismatchesOpen);
      },
    });
    new Gauge({
      name: 'kamai_payout_mismatches',
      help: 'Payout mismatches ever opened, resolved or not (all instances)',
      registers: [registry],
      async collect() {
        const figure = await fresh().catch(() => undefined);
        if (figure) this.set(figure.mismatchesTotal);
      },
    });
    new Gauge({
      name: 'kamai_withdrawals',
      help: 'Withdrawals by state and by the gateway paying them ("none" before approval)',
      labelNames: ['state', 'gateway'] as const,
      registers: [registry],
      async collect() {
        const figure = await fresh().catch(() => undefined);
        if (!figure) return;
        this.reset();
        for (const row of figure.states) this.set({ state: row.state, gateway: row.gateway }, row.count);
      },
    });
  }

  const complaints = sources.complaintFigures;
  if (complaints) {
    new Gauge({
      name: 'kamai_complaints_open',
      help: 'Complaints not closed yet (all instances)',
      registers: [registry],
      async collect() {
        const figure = await complaints().catch(() => undefined);
        if (figure) this.set(figure.open);
      },
    });
    new Gauge({
      name: 'kamai_complaints_overdue',
      help: 'Complaints past a deadline: not acknowledged within 24 hours, or not closed within 15 days',
      registers: [registry],
      async collect() {
        const figure = await complaints().catch(() => undefined);
        if (figure) this.set(figure.overdue);
      },
    });
  }

  return {
    registry,
    onPayoutMismatch: (gateway: string) => mismatchesOpened.inc({ gateway }),
    onTransactionRetry: ({ sqlState }: { sqlState: string | undefined }) => txRetries.inc({ sqlstate: sqlState ?? '' }),
    onCounterFallback: () => counterFallbacks.inc(),
    onDelivery: (attempt: { channel: string; provider: string; status: string }) => deliveries.inc(attempt),
    /**
     * Counts every answer (API, static files, 404s) under its route template, never the raw URL: the
     * observer http-policy's one onResponse hook calls (`observeAnswers`).
     */
    observeAnswer(request: FastifyRequest, reply: FastifyReply) {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== METRICS_PATH) http.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The latency histogram's upper bounds, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface DurationSeries {
  labels: { method: string; route: string };
  /** Observations per bucket (not cumulative); the last slot is above every bound (+Inf only). */
  buckets: number[];
  count: number;
  sum: number;
}

/**
 * The HTTP answers' three series (requests, latency, 5xx) kept in plain numbers per (method, route,
 * status) and handed to the registry when it is scraped. prom-client's `inc()`/`observe()` validate
 * and hash their label object on every call, even through `labels()` (~2.5% of a hello route's CPU,
 * docs/performance.md); here an answer costs one Map look-up and a few additions. The exposition
 * (names, help, types, labels, cumulative buckets, _sum and _count) is prom-client's own: the
 * counters are prom-client Counters filled at scrape time, the histogram prints what a Histogram would.
 */
export function httpSeries(registry: Registry, buckets = HTTP_DURATION_BUCKETS) {
  type Answers = { labels: { method: string; route: string; status: string }; count: number };
  type Failures = { labels: { route: string; status: string }; count: number };
  const answers: Answers[] = [];
  const failures: Failures[] = [];
  const durations = new Map<string, DurationSeries>();
  const series = new Map<string, { answers: Answers; failures?: Failures; duration: DurationSeries }>();

  function seriesOf(method: string, route: string, status: number) {
    const key = `${method} ${status} ${route}`;
    let one = series.get(key);
    if (one) return one;
    const timed = `${method} ${route}`;
    let duration = durations.get(timed);
    if (!duration) {
      duration = { labels: { method, route }, buckets: new Array(buckets.length + 1).fill(0), count: 0, sum: 0 };
      durations.set(timed, duration);
    }
    const counted: Answers = { labels: { method, route, status: String(status) }, count: 0 };
    answers.push(counted);
    const failed: Failures | undefined =
      status >= 500 ? { labels: { route, status: String(status) }, count: 0 } : undefined;
    if (failed) failures.push(failed);
    one = { answers: counted, failures: failed, duration };
    series.set(key, one);
    return one;
  }

  new Counter({
    name: 'kamai_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const one of answers) this.inc(one.labels, one.count);
    },
  });
  new Counter({
    name: 'kamai_http_server_errors_total',
    help: 'Answers with a 5xx status, by route template and status (503: database unavailable)',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const one of failures) this.inc(one.labels, one.count);
    },
  });
  const name = 'kamai_http_request_duration_seconds';
  const histogram = {
    name,
    help: 'Time to answer an HTTP request, by method and route template',
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    /** What prom-client's Histogram hands the registry: cumulative buckets, then +Inf, _sum and _count. */
    getForPromString() {
      const values: {
        labels: Record<string, string | number>;
        sharedLabels: object;
        value: number;
        metricName: string;
      }[] = [];
      for (const one of durations.values()) {
        let cumulative = 0;
        buckets.forEach((le, i) => {
          cumulative += one.buckets[i] as number;
          values.push({ labels: { le }, sharedLabels: one.labels, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push(
          { labels: { le: '+Inf' }, sharedLabels: one.labels, value: one.count, metricName: `${name}_bucket` },
          { labels: {}, sharedLabels: one.labels, value: one.sum, metricName: `${name}_sum` },
          { labels: {}, sharedLabels: one.labels, value: one.count, metricName: `${name}_count` },
        );
      }
      return { name, help: histogram.help, type: histogram.type, aggregator: histogram.aggregator, values };
    },
    get() {
      const data = histogram.getForPromString();
      return {
        ...data,
        values: data.values.map(({ labels, sharedLabels, ...rest }) => ({
          ...rest,
          labels: { ...labels, ...sharedLabels },
        })),
      };
    },
    reset() {
      for (const one of durations.values()) {
        one.buckets.fill(0);
        one.count = 0;
        one.sum = 0;
      }
    },
  };
  registry.registerMetric(histogram as unknown as Parameters<Registry['registerMetric']>[0]);

  return {
    /** One answer: its method, route template, status and time in seconds. */
    record(method: string, route: string, status: number, seconds: number) {
      const one = seriesOf(method, route, status);
      one.answers.count += 1;
      if (one.failures) one.failures.count += 1;
      const duration = one.duration;
      let slot = 0;
      while (slot < buckets.length && seconds > (buckets[slot] as number)) slot += 1;
      duration.buckets[slot] = (duration.buckets[slot] as number) + 1;
      duration.count += 1;
      duration.sum += seconds;
    },
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may scrape: with METRICS_TOKEN, a caller sending it as a bearer token; without it, only a
 * caller on this machine that did not come through a proxy (no X-Forwarded-For), so a load balancer
 * on the same host cannot hand the figures to the public.
 */
export function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameSecret(header.slice(7), token);
  }
  const address = request.socket.remoteAddress ?? '';
  const loopback = address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
  return loopback && request.headers['x-forwarded-for'] === undefined;
}

export function serveMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, token)) {
      return token
        ? sendError(request, reply, 'unauthorized', 401, {})
        : sendError(request, reply, 'forbidden', 403, {});
    }
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
