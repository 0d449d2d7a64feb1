import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { API, BENCH_ADMIN, BENCH_ADMIN_ENV, login } from './lib/api';
import { freshDatabase } from './lib/postgres';
import { root, startNode } from './lib/processes';

/**
 * The server's own CPU time per answer (utime + stime of its process from /proc, over a fixed number
 * of requests after a warm-up): less disturbed by a shared machine than req/s, since time the server
 * waits for a core is not counted. Compares builds back to back (docs/performance.md, issue 14):
 *
 *   npx tsx bench/cpu-per-request.ts [--entry=server/dist/main.js ...] [--postgres] [--requests=N]
 *
 * Each entry is started in turn for each route, `--rounds` times alternating; medians are printed.
 */
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
) as Record<string, string>;
const entries = (args.entry ?? 'server/dist/main.js').split(',').map((e) => resolve(root, e));
const requests = Number(args.requests ?? 40_000);
const rounds = Number(args.rounds ?? 3);
const postgres = args.postgres === 'true';
const routes = (args.routes ?? 't1,user/detail,task/list').split(',');
const TICK_US = 1_000_000 / 100; // USER_HZ

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

function fire(url: string, amount: number, token?: string, pipelining = 1): Promise<void> {
  return new Promise((done, fail) => {
    autocannon(
      {
        url,
        connections: 50,
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

async function measure(entry: string, route: string): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-cpu-'));
  const db = postgres ? await freshDatabase('cpu') : undefined;
  const server = await startNode({
    args: [entry],
    env: { DATA_DIR: dataDir, ...BENCH_ADMIN_ENV, ...(db ? { DATABASE_URL: db.url } : {}) },
    readyPath: '/obj/test/t2',
  });
  try {
    const pid = server.child.pid as number;
    const token = route === 't1' ? undefined : await login(server.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    const url = route === 't1' ? `${server.url}/obj/test/t1` : `${server.url}${API}/user/${route}`;
    const amount = route === 't1' ? requests : Math.max(2000, Math.round(requests / (postgres ? 5 : 20)));
    const pipelining = route === 't1' ? 10 : 1;
    await fire(url, Math.round(amount / 4), token, pipelining);
    const before = cpuTicks(pid);
    await fire(url, amount, token, pipelining);
    return ((cpuTicks(pid) - before) * TICK_US) / amount;
  } finally {
    await server.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
process.stdout.write(`load average ${load()}; ${postgres ? 'PostgreSQL' : 'PGlite'}\n`);
for (const route of routes) {
  const results = new Map<string, number[]>(entries.map((e) => [e, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[(i + round) % entries.length] as string;
      results.get(entry)?.push(await measure(entry, route));
    }
  }
  for (const [entry, us] of results) {
    process.stdout.write(
      `${route}\t${entry.replace(`${root}/`, '')}\t${median(us).toFixed(1)} µs/request (runs: ${us.map((u) => u.toFixed(1)).join(', ')})\n`,
    );
  }
}
process.stdout.write(`load average ${load()}\n`);
