import pg from 'pg';
import { API, call, MANY_USERS_ENV } from './lib/api';
import { cpuTicks, watchPostgresTicks } from './lib/capacity-measure';
import { inParallel, loadAverage, option, TICK_US } from './lib/cli';
import { customTasks, jobsDone, WITHDRAW_AMOUNT, writeSetup } from './lib/money';
import { freshDatabase } from './lib/postgres';
import { type Running, SERVER_ENTRY, startNode, startWriteCompetitor } from './lib/processes';
import { median, progress } from './lib/report';

/**
 * Benchmarks 3 and 4's writes as CPU per answer, Kamai against the yardstick (bench/minimal/writes.ts)
 * on one PostgreSQL database: the server process's CPU and the PostgreSQL backends' CPU per answer
 * (utime + stime from /proc, which a shared machine's neighbours do not inflate as they do req/s).
 * 64 users under one upline chain, as benchmark 4's; each write `--requests` times, 16 at a time, to
 * Kamai and then the yardstick, `--rounds` times alternating which goes first; medians.
 *
 *   npx tsx bench/write-cpu.ts [--requests=640] [--rounds=3]
 */
const requests = Number(option('requests', '640'));
const rounds = Number(option('rounds', '3'));
const USERS = 64;
const WRITES = ['withdraw/add', 'task/finish', 'approve'] as const;
type Write = (typeof WRITES)[number];
// `--profile=DIR`: Kamai's server under `node --cpu-prof` (the profile is written when it stops; read
// it with bench/profile-top.ts); `--only=task/finish` measures that write alone (withdrawals are still
// made for the approvals that need them).
const profileDir = option('profile', '');
const only = option('only', '');

const database = await freshDatabase('writecpu');
if (!database) throw new Error('no PostgreSQL server (BENCH_POSTGRES_URL)');
const dbName = new URL(database.url).pathname.slice(1);
process.stdout.write(`load average ${loadAverage()}\n`);
const startKamai = (env: Record<string, string>) =>
  startNode({
    args: [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), SERVER_ENTRY],
    env: { DATABASE_URL: database.url, WEB_CONCURRENCY: '1', ...MANY_USERS_ENV, ...env },
    readyPath: '/obj/test/t2',
  });
let kamai = await startKamai({});
const minimal = await startWriteCompetitor(database.url);
const servers: Record<'kamai' | 'minimal', Running> = { kamai, minimal };
const watcher = new pg.Client({ connectionString: database.url });
await watcher.connect();
const spent: Record<'kamai' | 'minimal', Record<Write, { server: number[]; postgres: number[] }>> = {
  kamai: Object.fromEntries(WRITES.map((w) => [w, { server: [], postgres: [] }])) as never,
  minimal: Object.fromEntries(WRITES.map((w) => [w, { server: [], postgres: [] }])) as never,
};
try {
  const base = kamai.url;
  const { admin, users } = await writeSetup(base, USERS);
  // Each task is claimed once per user: a set of tasks per server and round, plus one to warm up.
  const perRun = Math.ceil(requests / USERS);
  const tasks = await customTasks(base, admin, perRun * 2 * (rounds + 1));
  // Measured as benchmarks 3 and 4 measure: Kamai web-only (JOB_WORKERS=0), once the setup's jobs (the
  // payout accounts' checks) have run, so neither server's CPU includes payouts or pushes.
  await jobsDone(watcher);
  await kamai.stop();
  kamai = await startKamai({ JOB_WORKERS: '0' });
  servers.kamai = kamai;
  let taskAt = 0;
  const measure = async (
    who: 'kamai' | 'minimal',
    write: Write,
    count: number,
    send: (i: number) => Promise<unknown>,
  ) => {
    const pid = servers[who].child.pid as number;
    const before = cpuTicks(pid);
    const pgWatch = watchPostgresTicks(dbName);
    await inParallel(count, 16, send);
    const server = ((cpuTicks(pid) - before) * TICK_US) / count;
    const postgres = (pgWatch.stop() * TICK_US) / count;
    return { server, postgres, who, write };
  };
  const runAll = async (who: 'kamai' | 'minimal', record: boolean) => {
    const url = servers[who].url;
    const ids: number[] = [];
    const results = [];
    const runs = (write: Write) => !only || only === write;
    if (runs('withdraw/add') || runs('approve'))
      results.push(
        await measure(who, 'withdraw/add', requests, async (i) => {
          const user = users[i % users.length];
          const { id } = await call<{ id: number }>(
            url,
            'POST',
            `${API}/user/withdraw/add`,
            { amount: WITHDRAW_AMOUNT },
            user?.token,
          );
          ids.push(id);
        }),
      );
    const mine = tasks.slice(taskAt, taskAt + perRun);
    taskAt += perRun;
    if (runs('task/finish'))
      results.push(
        await measure(who, 'task/finish', users.length * mine.length, (i) =>
          call(
            url,
            'POST',
            `${API}/user/task/finish`,
            { taskId: mine[Math.floor(i / users.length)] },
            users[i % users.length]?.token,
          ),
        ),
      );
    if (runs('approve'))
      results.push(
        await measure(who, 'approve', ids.length, (i) =>
          call(url, 'POST', `${API}/admin/withdraw/review`, { id: ids[i], action: 'approve', reason: '' }, admin),
        ),
      );
    for (const r of results.filter((x) => !only || x.write === only)) {
      progress(
        `${who} ${r.write}: server ${r.server.toFixed(0)} µs, PostgreSQL ${r.postgres.toFixed(0)} µs CPU/answer${record ? '' : ' (warm-up)'}`,
      );
      if (record) {
        spent[who][r.write].server.push(r.server);
        spent[who][r.write].postgres.push(r.postgres);
      }
    }
  };
  progress('warming up both');
  await runAll('kamai', false);
  await runAll('minimal', false);
  for (let round = 0; round < rounds; round += 1) {
    const order: ('kamai' | 'minimal')[] = round % 2 === 0 ? ['kamai', 'minimal'] : ['minimal', 'kamai'];
    for (const who of order) await runAll(who, true);
  }
  for (const write of WRITES.filter((w) => !only || w === only)) {
    const k = spent.kamai[write];
    const m = spent.minimal[write];
    const kTotal = median(k.server.map((s, i) => s + (k.postgres[i] ?? 0)));
    const mTotal = median(m.server.map((s, i) => s + (m.postgres[i] ?? 0)));
    process.stdout.write(
      `${write}\tKamai server ${median(k.server).toFixed(0)} + PostgreSQL ${median(k.postgres).toFixed(0)} µs` +
        `\tyardstick server ${median(m.server).toFixed(0)} + PostgreSQL ${median(m.postgres).toFixed(0)} µs` +
        `\tCPU per answer, yardstick/Kamai ${(mTotal / kTotal).toFixed(2)} (medians of ${rounds})\n`,
    );
  }
} finally {
  await watcher.end();
  await minimal.stop();
  await kamai.stop();
  await database.drop();
}
process.stdout.write(`load average ${loadAverage()}\n`);
