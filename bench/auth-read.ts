import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API, BENCH_ADMIN_ENV, registerUsers } from './lib/api';
import { alternate, type BenchContext, type Benchmark } from './lib/bench';
import { type LoadResult, runLoad } from './lib/load';
import { freshDatabase } from './lib/postgres';
import { type Running, startHello, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';

const ROUTES = [
  { label: 'user/detail', path: `${API}/user/user/detail`, minRatio: 0.35 },
  { label: 'task/list', path: `${API}/user/task/list`, minRatio: 0.25 },
] as const;
const P99_TARGET_MS = 25;
/** Connections of the fixed-rate runs: a rate, not a connection count, sets the load there. */
const RATE_CONNECTIONS = 32;

function bad(runs: LoadResult[]): number {
  return runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
}

async function measure(ctx: BenchContext, backend: string, hello: Running, server: Running): Promise<Row[]> {
  const [user] = await registerUsers(server.url, 1);
  if (!user) throw new Error('no user registered');
  const headers = { authorization: `Bearer ${user.token}` };
  const peakOf = (url: string, withToken: boolean) =>
    runLoad({ url, ...ctx.peak, durationSec: ctx.seconds, headers: withToken ? headers : undefined });
  if (!ctx.smoke) {
    progress(`${backend}: warming up`);
    for (const route of ROUTES) await peakOf(`${server.url}${route.path}`, true);
  }
  progress(`${backend}: peak throughput, ${ctx.rounds} rounds of ${ctx.seconds} s`);
  const contenders: Record<string, () => Promise<LoadResult>> = { hello: () => peakOf(`${hello.url}/`, false) };
  for (const route of ROUTES) contenders[route.label] = () => peakOf(`${server.url}${route.path}`, true);
  const peaks = await alternate(ctx.rounds, contenders);
  const helloPeak = median((peaks.hello ?? []).map((r) => r.rps));
  const rows: Row[] = [];
  for (const route of ROUTES) {
    const runs = peaks[route.label] ?? [];
    const figure = median(runs.map((r) => r.rps));
    const ratio = figure / helloPeak;
    const errors = bad(runs);
    rows.push({
      name: `2 authenticated read (${backend}): GET ${route.label} peak`,
      figure,
      unit: 'req/s',
      baseline: { label: 'bare node:http hello', value: helloPeak, unit: 'req/s' },
      ratio,
      target: `ratio ≥ ${route.minRatio.toFixed(2)}`,
      pass: ratio >= route.minRatio && errors === 0,
      note: `median of ${ctx.rounds}${errors ? `, ${errors} non-2xx/errors` : ''}`,
    });
  }
  for (const route of ROUTES) {
    const rate = Math.max(1, Math.round(median((peaks[route.label] ?? []).map((r) => r.rps)) / 2));
    progress(`${backend}: ${route.label} p99 at ${rate} req/s (half of its peak), ${ctx.rounds} rounds`);
    const fixed = (url: string, withToken: boolean) =>
      runLoad({
        url,
        connections: RATE_CONNECTIONS,
        rate,
        durationSec: ctx.seconds,
        headers: withToken ? headers : undefined,
      });
    const runs = await alternate(ctx.rounds, {
      hello: () => fixed(`${hello.url}/`, false),
      ours: () => fixed(`${server.url}${route.path}`, true),
    });
    const figure = median(runs.ours.map((r) => r.p99));
    const errors = bad(runs.ours);
    rows.push({
      name: `2 authenticated read (${backend}): GET ${route.label} p99 at half of peak (${rate} req/s)`,
      figure,
      unit: 'ms',
      baseline: { label: 'hello p99 at that rate', value: median(runs.hello.map((r) => r.p99)), unit: 'ms' },
      ratio: figure / Math.max(median(runs.hello.map((r) => r.p99)), 1),
      target: `≤ ${P99_TARGET_MS} ms`,
      pass: figure <= P99_TARGET_MS && errors === 0,
      note: `median of ${ctx.rounds}${errors ? `, ${errors} non-2xx/errors` : ''}`,
    });
  }
  return rows;
}

/**
 * 2. Authenticated reads (session lookup + one or two queries) against node:http, on PGlite and,
 * when this machine's PostgreSQL server answers, on a fresh database there.
 */
export const authRead: Benchmark = {
  id: 2,
  title: 'authenticated read',
  async run(ctx) {
    const hello = await startHello();
    const rows: Row[] = [];
    try {
      const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
      const pglite = await startServer({ DATA_DIR: dataDir, ...BENCH_ADMIN_ENV });
      try {
        rows.push(...(await measure(ctx, 'PGlite', hello, pglite)));
      } finally {
        await pglite.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
      const database = await freshDatabase('read');
      if (!database) {
        progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
        return rows;
      }
      try {
        const server = await startServer({ DATABASE_URL: database.url, ...BENCH_ADMIN_ENV });
        try {
          rows.push(...(await measure(ctx, 'PostgreSQL', hello, server)));
        } finally {
          await server.stop();
        }
      } finally {
        await database.drop();
      }
      return rows;
    } finally {
      await hello.stop();
    }
  },
};
