import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { API, call, MANY_USERS_ENV } from './lib/api';
import { cpuTicks } from './lib/capacity-measure';
import { inParallel, loadAverage, option, TICK_US } from './lib/cli';
import { customTasks, WITHDRAW_AMOUNT, writeSetup } from './lib/money';
import { freshDatabase } from './lib/postgres';
import { root, SERVER_ENTRY, startNode } from './lib/processes';
import { median, progress } from './lib/report';

/**
 * Where the server's CPU goes on benchmarks 3 and 4's writes, and how much of it each answer takes:
 * the built server on a fresh PostgreSQL database, `--requests` withdraw/add from 64 users (invited
 * under one upline chain, as benchmark 4's), task/finish of `--requests`/64 tasks by each user (a
 * reward and two rebates each), then an approval of each withdrawal, 16 at a time (approvals last:
 * the payouts they queue run in the background, and their CPU counts in the approvals' figure). Prints the
 * server's CPU time per answer of each write (utime + stime from /proc: robust on a shared machine,
 * unlike req/s). Under `node --cpu-prof` unless `--no-profile`; the profile is written when the
 * server stops, for bench/profile-top.ts. `--entry` names builds to compare (each run in turn,
 * `--rounds` times alternating; medians):
 *
 *   npx tsx bench/write-profile.ts [--requests=640] [--dir=.tmp/write-profile]
 *     [--no-profile] [--entry=server/dist/main.js,/abs/other/dist/main.js] [--rounds=1]
 *   npx tsx bench/profile-top.ts .tmp/write-profile/<file>.cpuprofile --top=40
 */
const requests = Number(option('requests', '640'));
const dir = resolve(option('dir', '.tmp/write-profile'));
const profile = !process.argv.includes('--no-profile');
const rounds = Number(option('rounds', '1'));
const entries = option('entry', SERVER_ENTRY)
  .split(',')
  .map((e) => resolve(root, e));
const USERS = 64;
if (profile) mkdirSync(dir, { recursive: true });

type Write = 'withdraw/add' | 'approve' | 'task/finish';

/** One run of `entry`: the server's CPU µs per answer of each write. */
async function run(entry: string): Promise<Record<Write, number>> {
  const database = await freshDatabase('profile');
  if (!database) throw new Error('no PostgreSQL server (BENCH_POSTGRES_URL)');
  const server = await startNode({
    args: [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), entry],
    env: { DATABASE_URL: database.url, WEB_CONCURRENCY: '1', ...MANY_USERS_ENV },
    readyPath: '/obj/test/t2',
  });
  const pid = server.child.pid as number;
  const perAnswer = async (label: Write, count: number, send: (i: number) => Promise<unknown>) => {
    progress(`${count} ${label}, 16 at a time`);
    const before = cpuTicks(pid);
    const started = performance.now();
    await inParallel(count, 16, send);
    const us = ((cpuTicks(pid) - before) * TICK_US) / count;
    progress(
      `  ${((count * 1000) / (performance.now() - started)).toFixed(0)} req/s; server ${us.toFixed(0)} µs CPU/answer`,
    );
    return us;
  };
  try {
    const base = server.url;
    const { admin, users } = await writeSetup(base, USERS);
    const tasks = await customTasks(base, admin, Math.ceil(requests / USERS));
    const ids: number[] = [];
    const withdrawUs = await perAnswer('withdraw/add', requests, async (i) => {
      const user = users[i % users.length];
      if (!user) return;
      const { id } = await call<{ id: number }>(
        base,
        'POST',
        `${API}/user/withdraw/add`,
        { amount: WITHDRAW_AMOUNT },
        user.token,
      );
      ids.push(id);
    });
    // User varies fastest: the claims in flight together are different users'.
    const finishUs = await perAnswer('task/finish', users.length * tasks.length, (i) =>
      call(
        base,
        'POST',
        `${API}/user/task/finish`,
        { taskId: tasks[Math.floor(i / users.length)] },
        users[i % users.length]?.token,
      ),
    );
    const approveUs = await perAnswer('approve', ids.length, (i) =>
      call(base, 'POST', `${API}/admin/withdraw/review`, { id: ids[i], action: 'approve' }, admin),
    );
    return { 'withdraw/add': withdrawUs, approve: approveUs, 'task/finish': finishUs };
  } finally {
    await server.stop();
    await database.drop();
  }
}

process.stdout.write(`load average ${loadAverage()}\n`);
const results = new Map<string, Record<Write, number>[]>(entries.map((e) => [e, []]));
for (let round = 0; round < rounds; round += 1) {
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[(i + round) % entries.length] as string;
    results.get(entry)?.push(await run(entry));
  }
}
for (const [entry, runs] of results) {
  for (const write of ['withdraw/add', 'approve', 'task/finish'] as const) {
    const us = runs.map((r) => r[write]);
    process.stdout.write(
      `${write}\t${entry.replace(`${root}/`, '')}\t${median(us).toFixed(0)} µs server CPU/answer (runs: ${us.map((u) => u.toFixed(0)).join(', ')})\n`,
    );
  }
}
process.stdout.write(`load average ${loadAverage()}\n`);
if (profile) {
  const written = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  process.stdout.write(`profiles in ${dir}: ${written.join(', ')}\n`);
}
