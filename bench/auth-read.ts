import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API, BENCH_ADMIN_ENV, registerUsers } from './lib/api';
import { alternate, type BenchContext, type Benchmark } from './lib/bench';
import { type LoadResult, runLoad } from './lib/load';
import { freshDatabase } from './lib/postgres';
import { type Running, startMinimal, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';

const ROUTES = [
  { label: 'user/detail', path: `${API}/user/user/detail`, minRatio: 0.95 },
  { label: 'task/list', path: `${API}/user/task/list`, minRatio: 0.85 },
] as const;
const P99_TARGET_MS = 25;
/** Connections of the fixed-rate runs: a rate, not a connection count, sets the load there. */
const RATE_CONNECTIONS = 32;
/**
 * The peak runs' load and rounds (docs/decisions/hot-read-yardstick.md): 50 connections without
 * pipelining, as clients send reads, in 9 interleaved rounds whose medians are compared.
 */
const READ_LOAD = { connections: 50, pipelining: 1 };
const READ_ROUNDS = 9;
/** Locales whose answers are compared byte for byte before measuring (none sent: English). */
const CHECKED_LOCALES = [undefined, 'hi_IN', 'zh-CN,zh;q=0.9'];

function bad(runs: LoadResult[]): number {
  return runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
}

function spread(values: number[]): string {
  const finite = values.filter(Number.isFinite);
  return `${Math.min(...finite).toFixed(2)}-${Math.max(...finite).toFixed(2)}`;
}

/**
 * The yardstick must answer what Kamai answers, byte for byte, or its figures mean nothing: compares
 * both servers' status and body for each read in a few locales and throws, naming the first
 * difference, when any differ.
 */
export async function checkSameAnswers(kamai: string, minimal: string, token: string): Promise<void> {
  for (const route of ROUTES) {
    for (const lang of CHECKED_LOCALES) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (lang) headers['accept-language'] = lang;
      const [ours, theirs] = await Promise.all(
        [kamai, minimal].map(async (base) => {
          const res = await fetch(`${base}${route.path}`, { headers });
          return { status: res.status, body: await res.text() };
        }),
      );
      if (!ours || !theirs) throw new Error('no answer');
      if (ours.status === 200 && ours.status === theirs.status && ours.body === theirs.body) continue;
      let at = 0;
      while (at < ours.body.length && ours.body[at] === theirs.body[at]) at += 1;
      throw new Error(
        `benchmark 2: the minimal app's answer differs from Kamai's for GET ${route.label} (${lang ?? 'no Accept-Language'}) ` +
          `at character ${at}; its figures would compare different work:\n` +
          `  Kamai   ${ours.status} …${ours.body.slice(Math.max(0, at - 60), at + 120)}\n` +
          `  minimal ${theirs.status} …${theirs.body.slice(Math.max(0, at - 60), at + 120)}`,
      );
    }
  }
}

function peakLoad(ctx: BenchContext, url: string, token: string) {
  return runLoad({
    url,
    ...(ctx.smoke ? ctx.peak : READ_LOAD),
    durationSec: ctx.seconds,
    headers: { authorization: `Bearer ${token}` },
  });
}

function fixedRate(ctx: BenchContext, url: string, token: string, rate: number) {
  return runLoad({
    url,
    connections: RATE_CONNECTIONS,
    rate,
    durationSec: ctx.seconds,
    headers: { authorization: `Bearer ${token}` },
  });
}

function loadNote(ctx: BenchContext, rounds: number): string {
  const { connections, pipelining } = ctx.smoke ? ctx.peak : READ_LOAD;
  return `median of ${rounds} interleaved rounds, ${connections} connections${pipelining > 1 ? ` × ${pipelining} pipelined` : ', no pipelining'}`;
}

/** PostgreSQL: each read of Kamai against the same read of the minimal app, on the same database, same rounds. */
async function againstMinimal(
  ctx: BenchContext,
  kamai: Running,
  minimal: Running,
  withPolicy: Running,
  token: string,
): Promise<Row[]> {
  const rounds = ctx.smoke ? ctx.rounds : READ_ROUNDS;
  const contenders: Record<string, () => Promise<LoadResult>> = {};
  for (const route of ROUTES) {
    contenders[`kamai ${route.label}`] = () => peakLoad(ctx, `${kamai.url}${route.path}`, token);
    contenders[`minimal ${route.label}`] = () => peakLoad(ctx, `${minimal.url}${route.path}`, token);
    contenders[`policy ${route.label}`] = () => peakLoad(ctx, `${withPolicy.url}${route.path}`, token);
  }
  if (!ctx.smoke) {
    progress('PostgreSQL: warming up both servers');
    for (const run of Object.values(contenders)) await run();
  }
  progress(
    `PostgreSQL: peak throughput, ${rounds} interleaved rounds of ${ctx.seconds} s, Kamai and the minimal app without and with Kamai's policy`,
  );
  const peaks = await alternate(rounds, contenders);
  const rows: Row[] = [];
  for (const route of ROUTES) {
    const ours = peaks[`kamai ${route.label}`] ?? [];
    const theirs = peaks[`minimal ${route.label}`] ?? [];
    const figure = median(ours.map((r) => r.rps));
    const baseline = median(theirs.map((r) => r.rps));
    const ratio = figure / baseline;
    const errors = bad(ours) + bad(theirs);
    rows.push({
      name: `2 authenticated read (PostgreSQL): GET ${route.label} peak`,
      figure,
      unit: 'req/s',
      baseline: { label: 'minimal Fastify + pg', value: baseline, unit: 'req/s' },
      ratio,
      target: `ratio ≥ ${route.minRatio.toFixed(2)}`,
      pass: ratio >= route.minRatio && errors === 0,
      note: `${loadNote(ctx, rounds)}; per-round ratios ${spread(ours.map((r, i) => r.rps / (theirs[i]?.rps ?? Number.NaN)))}${errors ? `, ${errors} non-2xx/errors` : ''}`,
    });
    const policy = peaks[`policy ${route.label}`] ?? [];
    const policyFigure = median(policy.map((r) => r.rps));
    const policyErrors = bad(policy);
    rows.push({
      name: `2 authenticated read (PostgreSQL): GET ${route.label} peak against the minimal app with Kamai's per-request policy`,
      figure,
      unit: 'req/s',
      baseline: { label: "minimal app + Kamai's policy", value: policyFigure, unit: 'req/s' },
      ratio: figure / policyFigure,
      target: 'informative: the gap that is not the policy (headers, request id, log, metrics)',
      pass: policyErrors ? false : undefined,
      note: `same rounds; the policy alone takes the minimal app to ${(policyFigure / baseline).toFixed(2)} of itself; per-round ratios ${spread(ours.map((r, i) => r.rps / (policy[i]?.rps ?? Number.NaN)))}${policyErrors ? `, ${policyErrors} non-2xx/errors` : ''}`,
    });
  }
  for (const route of ROUTES) {
    const rate = Math.max(1, Math.round(median((peaks[`kamai ${route.label}`] ?? []).map((r) => r.rps)) / 2));
    progress(`PostgreSQL: ${route.label} p99 at ${rate} req/s (half of Kamai's peak), ${ctx.rounds} rounds`);
    const runs = await alternate(ctx.rounds, {
      ours: () => fixedRate(ctx, `${kamai.url}${route.path}`, token, rate),
      minimal: () => fixedRate(ctx, `${minimal.url}${route.path}`, token, rate),
    });
    const figure = median(runs.ours.map((r) => r.p99));
    const errors = bad(runs.ours);
    rows.push({
      name: `2 authenticated read (PostgreSQL): GET ${route.label} p99 at half of peak (${rate} req/s)`,
      figure,
      unit: 'ms',
      baseline: { label: 'minimal app p99 at that rate', value: median(runs.minimal.map((r) => r.p99)), unit: 'ms' },
      ratio: figure / Math.max(median(runs.minimal.map((r) => r.p99)), 1),
      target: `≤ ${P99_TARGET_MS} ms`,
      pass: figure <= P99_TARGET_MS && errors === 0,
      note: `median of ${ctx.rounds}${errors ? `, ${errors} non-2xx/errors` : ''}`,
    });
  }
  return rows;
}

/**
 * PGlite, the default engine, lives inside the server's process, so no second app can share its
 * database: its lines are Kamai's own figures (compare builds with bench/cpu-per-request.ts).
 */
async function onPglite(ctx: BenchContext, server: Running, token: string): Promise<Row[]> {
  const contenders: Record<string, () => Promise<LoadResult>> = {};
  for (const route of ROUTES) contenders[route.label] = () => peakLoad(ctx, `${server.url}${route.path}`, token);
  if (!ctx.smoke) {
    progress('PGlite: warming up');
    for (const run of Object.values(contenders)) await run();
  }
  progress(`PGlite: peak throughput, ${ctx.rounds} rounds of ${ctx.seconds} s`);
  const peaks = await alternate(ctx.rounds, contenders);
  const rows: Row[] = [];
  for (const route of ROUTES) {
    const runs = peaks[route.label] ?? [];
    const errors = bad(runs);
    rows.push({
      name: `2 authenticated read (PGlite): GET ${route.label} peak`,
      figure: median(runs.map((r) => r.rps)),
      unit: 'req/s',
      target: 'informative: no slower than the build before (bench/cpu-per-request.ts)',
      pass: errors ? false : undefined,
      note: `${loadNote(ctx, ctx.rounds)}${errors ? `, ${errors} non-2xx/errors` : ''}`,
    });
  }
  for (const route of ROUTES) {
    const rate = Math.max(1, Math.round(median((peaks[route.label] ?? []).map((r) => r.rps)) / 2));
    progress(`PGlite: ${route.label} p99 at ${rate} req/s (half of its peak), ${ctx.rounds} rounds`);
    const runs = await alternate(ctx.rounds, {
      ours: () => fixedRate(ctx, `${server.url}${route.path}`, token, rate),
    });
    const errors = bad(runs.ours);
    const figure = median(runs.ours.map((r) => r.p99));
    rows.push({
      name: `2 authenticated read (PGlite): GET ${route.label} p99 at half of peak (${rate} req/s)`,
      figure,
      unit: 'ms',
      target: `≤ ${P99_TARGET_MS} ms`,
      pass: figure <= P99_TARGET_MS && errors === 0,
      note: `median of ${ctx.rounds}${errors ? `, ${errors} non-2xx/errors` : ''}`,
    });
  }
  return rows;
}

async function registeredToken(server: Running): Promise<string> {
  const [user] = await registerUsers(server.url, 1);
  if (!user) throw new Error('no user registered');
  return user.token;
}

/**
 * 2. Authenticated reads (the session checked in the read's one query): on PostgreSQL against the same
 * reads written lean by hand (`bench/minimal/app.ts`) on the same database, after checking that both
 * answer the same bytes; on PGlite, Kamai's own figures.
 */
export const authRead: Benchmark = {
  id: 2,
  title: 'authenticated read',
  async run(ctx) {
    const rows: Row[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const pglite = await startServer({ DATA_DIR: dataDir, ...BENCH_ADMIN_ENV });
    try {
      rows.push(...(await onPglite(ctx, pglite, await registeredToken(pglite))));
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
        const token = await registeredToken(server);
        const minimal = await startMinimal(database.url, [], { withPolicy: false });
        const withPolicy = await startMinimal(database.url, [], { withPolicy: true });
        try {
          await checkSameAnswers(server.url, minimal.url, token);
          await checkSameAnswers(server.url, withPolicy.url, token);
          progress('PostgreSQL: the minimal app, without and with the policy, answers the same bytes as Kamai');
          rows.push(...(await againstMinimal(ctx, server, minimal, withPolicy, token)));
        } finally {
          await Promise.all([minimal.stop(), withPolicy.stop()]);
        }
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
    return rows;
  },
};
