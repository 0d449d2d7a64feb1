import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { API, BENCH_ADMIN, BENCH_ADMIN_ENV, login } from './lib/api';
import { freshDatabase } from './lib/postgres';
import { type Running, root, startMinimal, startNode } from './lib/processes';

/**
 * The asynchronous resources (promises, timers, ticks, ...) one answer of a read creates, in Kamai and
 * in benchmark 2's minimal app on the same PostgreSQL database: counts, so the figures do not move with
 * the machine's load (docs/performance.md). Each server runs with bench/lib/count-async.mjs
 * preloaded; after a warm-up, the counts before and after `--requests` answers give the figure per answer.
 *
 *   npx tsx bench/async-per-request.ts [--routes=user/detail,task/list] [--requests=10000]
 *
 * `MINIMAL_WITH_POLICY=1` gives the minimal app Kamai's per-request policy (bench/minimal/app.ts).
 * Kamai's job runner keeps its idle polls going meanwhile; over a run of a few seconds they add less
 * than 0.01 per answer.
 */
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
) as Record<string, string>;
const routes = (args.routes ?? 'user/detail,task/list').split(',');
const requests = Number(args.requests ?? 10_000);
const preload = ['--import', new URL('./lib/count-async.mjs', import.meta.url).pathname];

function fire(url: string, amount: number, token: string) {
  return new Promise<void>((done, fail) => {
    autocannon({ url, amount, connections: 50, headers: { authorization: `Bearer ${token}` } }, (error) =>
      error ? fail(error) : done(),
    );
  });
}

/** The server's counts so far, from the JSON line it writes on SIGUSR2. */
async function counts(server: Running): Promise<Record<string, number>> {
  const seen = server.output.length;
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    for (const chunk of server.output.slice(seen)) {
      const line = chunk.split('\n').find((l) => l.startsWith('{"asyncCounts"'));
      if (line) return (JSON.parse(line) as { asyncCounts: Record<string, number> }).asyncCounts;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the server wrote no counts after SIGUSR2');
}

const db = await freshDatabase('async');
if (!db) throw new Error('no PostgreSQL server answers at BENCH_POSTGRES_URL');
const kamai = await startNode({
  args: [...preload, resolve(root, 'server/dist/main.js')],
  env: { DATA_DIR: mkdtempSync(join(tmpdir(), 'kamai-async-')), ...BENCH_ADMIN_ENV, DATABASE_URL: db.url },
  readyPath: '/obj/test/t2',
});
const minimal = await startMinimal(db.url, preload);
try {
  const token = await login(kamai.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
  for (const route of routes) {
    for (const [name, server] of [
      ['Kamai', kamai],
      [process.env.MINIMAL_WITH_POLICY === '1' ? 'minimal app with the policy' : 'minimal app', minimal],
    ] as const) {
      const url = `${server.url}${API}/user/${route}`;
      await fire(url, Math.min(2000, requests), token);
      const before = await counts(server);
      await fire(url, requests, token);
      const after = await counts(server);
      const per = Object.keys(after)
        .map((type) => [type, ((after[type] ?? 0) - (before[type] ?? 0)) / requests] as const)
        .filter(([, n]) => n >= 0.01)
        .sort((a, b) => b[1] - a[1])
        .map(([type, n]) => `${type} ${n.toFixed(2)}`);
      console.log(`${route}\t${name}\t${per.join(', ')}`);
    }
  }
} finally {
  await kamai.stop();
  await minimal.stop();
  await db.drop();
}
