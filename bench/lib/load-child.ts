import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import type { LoadRequest, LoadSpec, RunFigures } from './load';

/**
 * A load generator process of its own (docs/decisions/benchmark-method.md), so its CPU use
 * and timers are not mixed with the benchmark runner's. Kept alive between runs (spawning one per
 * run cost ~0.5 s each); takes a LoadSpec per message and answers with the run's figures.
 */

/** One list dealt over all connections: autocannon asks each connection's iterator for its next. */
function spreadRequests(list: LoadRequest[]) {
  let next = 0;
  return [
    {
      setupRequest: (req: Record<string, unknown>) => {
        const r = list[next++ % list.length] as LoadRequest;
        return { ...req, method: r.method, path: r.path, headers: r.headers, body: r.body };
      },
    },
  ];
}

function full(spec: LoadSpec): Promise<RunFigures> {
  const requests =
    spec.spread && spec.requests?.length
      ? spreadRequests(spec.requests)
      : spec.requests?.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body }));
  return new Promise((done, fail) => {
    // autocannon notices that an `amount` run is done only at its next one-second sample, so its
    // `duration` is rounded up to whole seconds: ~1,000 answers in 1.1 s would read 500/s. An amount
    // run's duration here is from the start to its last answer, timed in this process.
    const started = performance.now();
    let lastAnswer = started;
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        pipelining: spec.pipelining ?? 1,
        duration: spec.durationSec,
        ...(spec.amount ? { amount: spec.amount } : {}),
        headers: spec.headers,
        requests: requests as autocannon.Request[] | undefined,
        timeout: 10,
      },
      (error, result) => {
        if (error) return fail(error);
        const figures = result as unknown as RunFigures;
        if (spec.amount) figures.duration = (lastAnswer - started) / 1000;
        done(figures);
      },
    );
    if (spec.amount) {
      instance.on('response', () => {
        lastAnswer = performance.now();
      });
    }
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * A fixed rate, sent at even intervals whatever the answers (open loop, as wrk2 does): autocannon's
 * own rate limit sends each second's quota in a burst at the start of the second
 * (lib/httpClient.js), which measures a peak load, not the rate asked for. Latency counts from the
 * moment a request was due, so a server that falls behind is not flattered (coordinated omission).
 * `requests`, when given, are sent in turn (request i is `requests[i % length]`).
 */
async function paced(spec: LoadSpec & { rate: number }): Promise<RunFigures> {
  const target = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const interval = 1000 / spec.rate;
  const count = Math.max(1, Math.round(spec.rate * spec.durationSec));
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const list = spec.requests?.length ? spec.requests : undefined;
  const send = (due: number, i: number) =>
    new Promise<void>((resolve) => {
      const one = list?.[i % list.length];
      // Sent up to 1 ms early rather than sleeping for less than a timer tick: count from the send then.
      const origin = Math.max(due, performance.now());
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: one?.method ?? 'GET',
          path: one?.path ?? `${target.pathname}${target.search}`,
          headers: { ...spec.headers, ...one?.headers },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - origin);
            const code = String(res.statusCode);
            statuses[code] = (statuses[code] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(one?.body);
    });
  const started = performance.now() + 20;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(due, i));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const non2xx = Object.entries(statuses).reduce((sum, [code, n]) => (code.startsWith('2') ? sum : sum + n), 0);
  return {
    duration: (performance.now() - started) / 1000,
    requests: { total: latencies.length },
    latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? Number.NaN },
    non2xx,
    errors,
    timeouts: 0,
    statusCodeStats: Object.fromEntries(Object.entries(statuses).map(([code, n]) => [code, { count: n }])),
  };
}

process.on('message', (message: { id: number; spec: LoadSpec }) => {
  const { id, spec } = message;
  const run = spec.rate ? paced({ ...spec, rate: spec.rate }) : full(spec);
  run.then(
    (result) => process.send?.({ id, result }),
    (error: Error) => process.send?.({ id, error: error.stack ?? error.message }),
  );
});
