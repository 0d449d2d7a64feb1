import { API, BENCH_ADMIN, call, controlled, login, MANY_USERS_ENV } from './lib/api';
import { BENCH_WITHDRAWAL_SETTINGS, customTasks, fundedUsers } from './lib/money';
import { freshDatabase } from './lib/postgres';
import { SERVER_ENTRY, startNode } from './lib/processes';

/**
 * Database round trips per money write (docs/decisions/round-trips-per-write.md): the built server on a fresh
 * PostgreSQL
 * database with bench/lib/count-queries.mjs preloaded, which counts node-postgres queries (one round
 * trip each, BEGIN and COMMIT included); each write is sent alone, `--repeat` times, and the count of
 * the last one printed (the first of a kind also prepares named statements), and how many SQL texts
 * drizzle built for each (query building, the writes' largest CPU cost in their profile).
 *
 *   npx tsx bench/round-trips.ts [--repeat=5]
 */
const repeat = Number(process.argv.find((a) => a.startsWith('--repeat='))?.split('=')[1] ?? 5);
const database = await freshDatabase('trips');
if (!database) throw new Error('no PostgreSQL server (BENCH_POSTGRES_URL)');
const server = await startNode({
  args: ['--import', new URL('./lib/count-queries.mjs', import.meta.url).pathname, SERVER_ENTRY],
  env: { DATABASE_URL: database.url, WEB_CONCURRENCY: '1', ...MANY_USERS_ENV },
  readyPath: '/obj/test/t2',
});
try {
  const base = server.url;
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await controlled(base, `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  const [user] = await fundedUsers(base, admin, 1);
  if (!user) throw new Error('no user');
  const tasks = await customTasks(base, admin, repeat);
  const counted = async (label: string, send: () => Promise<unknown>) => {
    const counts: number[] = [];
    const builds: number[] = [];
    for (let i = 0; i < repeat; i += 1) {
      await new Promise((r) => setTimeout(r, 200));
      server.output.length = 0;
      server.child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 100));
      await send();
      await new Promise((r) => setTimeout(r, 100));
      server.output.length = 0;
      server.child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 200));
      const text = server.output.join('');
      const line = text.match(/queries=(\d+)/);
      counts.push(Number(line?.[1] ?? Number.NaN));
      builds.push(Number(text.match(/builds=(\d+)/)?.[1] ?? Number.NaN));
      if (process.env.COUNT_QUERIES_LOG === '1' && i === repeat - 1) process.stdout.write(`${text.trim()}\n`);
    }
    process.stdout.write(
      `${label}: ${counts.join(', ')} round trips; ${builds.join(', ')} SQL texts built by drizzle\n`,
    );
  };
  const ids: number[] = [];
  await counted('withdraw/add', async () => {
    const { id } = await call<{ id: number }>(base, 'POST', `${API}/user/withdraw/add`, { amount: '0.05' }, user.token);
    ids.push(id);
  });
  let t = 0;
  await counted('task/finish', () => call(base, 'POST', `${API}/user/task/finish`, { taskId: tasks[t++] }, user.token));
  let w = 0;
  await counted('admin/withdraw/review approve', () =>
    call(base, 'POST', `${API}/admin/withdraw/review`, { id: ids[w++], action: 'approve' }, admin),
  );
} finally {
  await server.stop();
  await database.drop();
}
