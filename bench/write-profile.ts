import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { API, BENCH_ADMIN, call, controlled, login, MANY_USERS_ENV } from './lib/api';
import { BENCH_WITHDRAWAL_SETTINGS, fundedUsers, WITHDRAW_AMOUNT } from './lib/money';
import { freshDatabase } from './lib/postgres';
import { SERVER_ENTRY, startNode } from './lib/processes';
import { progress } from './lib/report';

/**
 * Where the server's CPU goes on benchmark 3's writes: the built server on a fresh PostgreSQL database
 * under `node --cpu-prof`, `--requests` withdraw/add from many users then as many approvals, 16 at a
 * time; the profile is written when the server stops, for bench/profile-top.ts:
 *
 *   npx tsx bench/write-profile.ts [--requests=600] [--dir=.tmp/write-profile]
 *   npx tsx bench/profile-top.ts .tmp/write-profile/<file>.cpuprofile --top=40
 */
const option = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const requests = Number(option('requests', '600'));
const dir = resolve(option('dir', '.tmp/write-profile'));
mkdirSync(dir, { recursive: true });
const database = await freshDatabase('profile');
if (!database) throw new Error('no PostgreSQL server (BENCH_POSTGRES_URL)');
const server = await startNode({
  args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, SERVER_ENTRY],
  env: { DATABASE_URL: database.url, WEB_CONCURRENCY: '1', ...MANY_USERS_ENV },
  readyPath: '/obj/test/t2',
});
/** `count` calls of `send`, `width` at a time. */
async function inParallel(count: number, width: number, send: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await send(next++);
    }),
  );
}
try {
  const base = server.url;
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await controlled(base, `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  const users = await fundedUsers(base, admin, 64);
  const ids: number[] = [];
  progress(`${requests} withdraw/add, 16 at a time`);
  let started = performance.now();
  await inParallel(requests, 16, async (i) => {
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
  progress(`  ${((requests * 1000) / (performance.now() - started)).toFixed(0)} req/s`);
  progress(`${ids.length} admin/withdraw/review approve, 16 at a time`);
  started = performance.now();
  await inParallel(ids.length, 16, (i) =>
    call(base, 'POST', `${API}/admin/withdraw/review`, { id: ids[i], action: 'approve' }, admin),
  );
  progress(`  ${((ids.length * 1000) / (performance.now() - started)).toFixed(0)} req/s`);
} finally {
  await server.stop();
  await database.drop();
}
const written = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
process.stdout.write(`profiles in ${dir}: ${written.join(', ')}\n`);
