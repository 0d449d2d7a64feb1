import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { API, BENCH_ADMIN, BENCH_ADMIN_ENV, login } from './lib/api';
import { cpuTicks, postgresTicks } from './lib/capacity-measure';
import { freshDatabase } from './lib/postgres';
import { root, startFastifyHello, startHello, startMinimal, startNode, startPolicyHello } from './lib/processes';
import { POLICY_PARTS, type PolicyPart } from './minimal/policy';

/**
 * The server's own CPU time per answer (utime + stime of its process from /proc, over a fixed number
 * of requests after a warm-up): less disturbed by a shared machine than req/s, since time the server
 * waits for a core is not counted. Compares builds back to back (docs/performance.md):
 *
 *   npx tsx bench/cpu-per-request.ts [--entry=server/dist/main.js,/abs/other/dist/main.js] [--postgres]
 *     [--requests=N] [--rounds=N] [--routes=t1,user/detail,task/list] [--connections=50] [--pipelining=N]
 *     [--profile=DIR]   (each server runs with node --cpu-prof, its profile written to DIR at exit;
 *                        `npx tsx bench/profile-top.ts DIR/<file>.cpuprofile` prints where the time went)
 *
 * Two entries name benchmark 1's baselines instead of a build: `hello` (the bare node:http hello) and
 * `fastify` (Fastify 5 with no plugin); they answer any route on `/` (the same JSON as t1), so
 * `--entry=hello,fastify,server/dist/main.js --routes=t1,user/detail` sets a read's CPU beside theirs.
 * `fastify-policy` is Fastify 5 with Kamai's per-request policy answering t1's bytes (`--routes=t1` only);
 * `policy-none` the same bytes with no policy, and `policy-options`, `policy-headers` and
 * `policy-observer` with one part of it alone, which split what the policy costs t1.
 * `minimal` is benchmark 2's yardstick (bench/minimal/app.ts, `--postgres` only): the server's build
 * migrates its database and logs in, then the minimal app answers user/detail and task/list there
 * and its own CPU is counted (`--entry=minimal,server/dist/main.js --postgres --routes=user/detail,task/list`).
 *
 * Each entry (relative to the repository or absolute) is started in turn for each route, `--rounds`
 * times alternating; medians are printed. With --postgres it also prints the CPU time PostgreSQL's
 * backends for the run's own database spent per answer, and the answers a second the run saw
 * (informative only: a shared machine moves req/s far more than CPU time). It also prints the load
 * generator's own CPU per answer (this process, where autocannon runs): on two cores the generator,
 * the server and PostgreSQL share the CPU, so a route's peak against the hello's is about the ratio of
 * their summed CPU per answer.
 */
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
) as Record<string, string>;
const BASELINES = new Set(['hello', 'fastify']);
/** Fastify 5 with Kamai's per-request policy, answering t1's bytes on `/obj/test/t1` (bench/minimal/hello.ts). */
const POLICY_HELLO = 'fastify-policy';
/**
 * The same hello with no policy (`policy-none`) or one part of it (`policy-options`, `policy-headers`,
 * `policy-observer`; `PolicyPart` in bench/minimal/policy.ts): what each part costs t1.
 */
const PARTS = new Map<string, 'none' | PolicyPart>([
  ['policy-none', 'none'],
  ...POLICY_PARTS.map((part) => [`policy-${part}`, part] as const),
]);
const isHello = (entry: string) => entry === POLICY_HELLO || PARTS.has(entry);
/** Benchmark 2's yardstick (bench/minimal/app.ts): PostgreSQL only, on a database Kamai migrated. */
const MINIMAL = 'minimal';
const entries = (args.entry ?? 'server/dist/main.js')
  .split(',')
  .map((e) => (BASELINES.has(e) || e === MINIMAL || isHello(e) ? e : resolve(root, e)));
const requests = Number(args.requests ?? 40_000);
const rounds = Number(args.rounds ?? 3);
const postgres = args.postgres === 'true';
const routes = (args.routes ?? 't1,user/detail,task/list').split(',');
const connections = Number(args.connections ?? 50);
const TICK_US = 1_000_000 / 100; // USER_HZ

interface Figures {
  serverUs: number;
  postgresUs?: number;
  /** The load generator's CPU per answer (this process). */
  generatorUs: number;
  perSecond: number;
}

function fire(url: string, amount: number, token?: string, pipelining = 1): Promise<void> {
  return new Promise((done, fail) => {
    autocannon(
      {
        url,
        connections,
        pipelining,
        amount,
        timeout: 30,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      },
      (error, result) => {
        if (error) return fail(error);
        if (result.non2xx || result.errors > amount / 100)
          return fail(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
        done();
      },
    );
  });
}

async function measure(entry: string, route: string): Promise<Figures> {
  const baseline = BASELINES.has(entry);
  const minimal = entry === MINIMAL;
  if (minimal && !postgres) throw new Error('the minimal app runs on PostgreSQL only: add --postgres');
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-cpu-'));
  if (isHello(entry) && route !== 't1') throw new Error(`${entry} answers t1 only: --routes=t1`);
  const db = postgres && !baseline && !isHello(entry) ? await freshDatabase('cpu') : undefined;
  const kamai =
    entry === 'hello'
      ? await startHello()
      : entry === 'fastify'
        ? await startFastifyHello()
        : isHello(entry)
          ? await startPolicyHello(
              args.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args.profile)}`] : [],
              PARTS.get(entry),
            )
          : await startNode({
              // For `minimal`, Kamai only migrates and logs in, idle while the minimal app is measured.
              args: minimal
                ? [resolve(root, 'server/dist/main.js')]
                : args.profile
                  ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args.profile)}`, entry]
                  : [entry],
              env: { DATA_DIR: dataDir, ...BENCH_ADMIN_ENV, ...(db ? { DATABASE_URL: db.url } : {}) },
              readyPath: '/obj/test/t2',
            });
  const yardstick =
    minimal && db
      ? await startMinimal(db.url, args.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args.profile)}`] : [])
      : undefined;
  const server = yardstick ?? kamai;
  try {
    const pid = server.child.pid as number;
    const token =
      route === 't1' || baseline ? undefined : await login(kamai.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    const url = baseline
      ? `${server.url}/`
      : route === 't1'
        ? `${server.url}/obj/test/t1`
        : `${server.url}${API}/user/${route}`;
    const amount = route === 't1' ? requests : Math.max(2000, Math.round(requests / (postgres ? 5 : 20)));
    const pipelining = Number(args.pipelining ?? (route === 't1' ? 10 : 1));
    await fire(url, Math.round(amount / 4), token, pipelining);
    const database = db ? new URL(db.url).pathname.slice(1) : undefined;
    const before = cpuTicks(pid);
    const postgresBefore = database ? postgresTicks(database) : 0;
    const generatorBefore = process.cpuUsage();
    const started = performance.now();
    await fire(url, amount, token, pipelining);
    const seconds = (performance.now() - started) / 1000;
    const generator = process.cpuUsage(generatorBefore);
    return {
      serverUs: ((cpuTicks(pid) - before) * TICK_US) / amount,
      generatorUs: (generator.user + generator.system) / amount,
      ...(database ? { postgresUs: ((postgresTicks(database) - postgresBefore) * TICK_US) / amount } : {}),
      perSecond: amount / seconds,
    };
  } finally {
    await yardstick?.stop();
    await kamai.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
process.stdout.write(`load average ${load()}; ${postgres ? 'PostgreSQL' : 'PGlite'}\n`);
for (const route of routes) {
  const results = new Map<string, Figures[]>(entries.map((e) => [e, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[(i + round) % entries.length] as string;
      results.get(entry)?.push(await measure(entry, route));
    }
  }
  for (const [entry, runs] of results) {
    const us = runs.map((r) => r.serverUs);
    const pgUs = runs.flatMap((r) => (r.postgresUs === undefined ? [] : [r.postgresUs]));
    const rates = runs.map((r) => r.perSecond);
    const generatorUs = runs.map((r) => r.generatorUs);
    process.stdout.write(
      `${route}\t${BASELINES.has(entry) ? `${entry} (baseline, on /)` : entry === MINIMAL ? 'minimal Fastify + pg (bench/minimal/app.ts)' : entry.replace(`${root}/`, '')}\t${median(us).toFixed(1)} µs/request (runs: ${us.map((u) => u.toFixed(1)).join(', ')})` +
        (pgUs.length
          ? `; PostgreSQL ${median(pgUs).toFixed(1)} µs (${pgUs.map((u) => u.toFixed(1)).join(', ')})`
          : '') +
        `; generator ${median(generatorUs).toFixed(1)} µs` +
        `; ${median(rates).toFixed(0)} req/s (${rates.map((r) => r.toFixed(0)).join(', ')})\n`,
    );
  }
}
process.stdout.write(`load average ${load()}\n`);
