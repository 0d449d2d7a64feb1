import { readFileSync } from 'node:fs';
import pg from 'pg';
import { API, BENCH_ADMIN, call, controlled, DUAL_ADMIN_ENV, login, MANY_USERS_ENV, registerUsers } from './lib/api';
import {
  counters,
  cpuTicks,
  fire,
  type Kind,
  payoutsSettled,
  walBytes,
  watchPostgresTicks,
} from './lib/capacity-measure';
import { type KindCost, printModel } from './lib/capacity-model';
import { BENCH_WITHDRAWAL_SETTINGS, customTasks, fundedUsers, WITHDRAW_AMOUNT } from './lib/money';
import { type OwnPostgres, startOwnPostgres } from './lib/own-postgres';
import { freshDatabase, POSTGRES_URL } from './lib/postgres';
import { SERVER_ENTRY, startNode } from './lib/processes';
import { progress } from './lib/report';

/**
 * The capacity model's costs (docs/operations.md "Capacity model"), measured: the built server on a
 * fresh PostgreSQL database, each request kind of the daily mix (bench/lib/capacity-model.ts) sent
 * alone, `--requests` of it from `--connections`, and per answer: the server's CPU (/proc/<pid>/stat,
 * all threads, as bench/cpu-per-request.ts), the CPU of PostgreSQL's backends for this database, the
 * statements' execution time (pg_stat_statements, when the server loads it; else the database's
 * `active_time` and its SQL functions' times), bytes on the wire, rows
 * written (pg_stat_database) with the tables they went to, WAL bytes (pg_current_wal_lsn difference)
 * and commits. Then the model's table for 350,000, 5 million and 50 million users.
 *
 *   npm run build -w server && npx tsx bench/capacity.ts [--own-postgres] [--requests=1000]
 *     [--connections=8] [--users=64]
 *
 * BENCH_POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432/postgres) serves the run
 * unless `--own-postgres` starts a private cluster (bench/lib/own-postgres.ts) with pg_stat_statements
 * loaded; on a shared server WAL positions are the whole cluster's, so other databases' writes count
 * too (the background WAL rate measured idle before the kinds is printed beside them).
 */
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
) as Record<string, string>;
const requests = Number(args.requests ?? 1000);
const connections = Number(args.connections ?? 8);
const userCount = Number(args.users ?? 64);
/** Logins hash a password (the slowest answer by far): fewer of them. */
const loginRequests = Math.max(50, Math.round(requests / 10));
const TICK_US = 1_000_000 / 100; // USER_HZ
const STATS_FLUSH_MS = 11_000; // PostgreSQL 15 backends flush table and database counters within 10 s of going idle

/** Requests of a kind sent before it is measured (the first of a kind also prepares its statements). */
const warmUp = (amount: number) => Math.max(connections * 4, Math.round(amount / 10));

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const own: OwnPostgres | undefined = args['own-postgres'] === 'true' ? await startOwnPostgres(POSTGRES_URL) : undefined;
const database = await freshDatabase('capacity', own?.url);
if (!database) throw new Error(`no PostgreSQL server at ${POSTGRES_URL} (BENCH_POSTGRES_URL)`);
const dbName = new URL(database.url).pathname.slice(1);
const c = new pg.Client({ connectionString: database.url });
await c.connect();
await c.query(`alter database ${dbName} set track_functions = 'all'`);
const statements = await c
  .query('create extension if not exists pg_stat_statements')
  .then(() => c.query('select 1 from pg_stat_statements limit 1'))
  .then(
    () => true,
    () => false,
  );
progress(`load average ${load()}; pg_stat_statements ${statements ? 'loaded' : 'not loaded'}`);
const server = await startNode({
  args: [SERVER_ENTRY],
  env: { DATABASE_URL: database.url, WEB_CONCURRENCY: '1', ...MANY_USERS_ENV, ...DUAL_ADMIN_ENV },
  readyPath: '/obj/test/t2',
});
const costs = new Map<string, KindCost>();
try {
  const base = server.url;
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await controlled(base, `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  // Two rebate levels on every reward, as the default rates pay them: the users' inviter earns level 1
  // and that inviter's inviter level 2 (staff earn nothing, so the chain starts below the admin).
  const inviteCodeOf = async (token: string) =>
    (await call<{ inviteCode: string }>(base, 'GET', `${API}/user/user/detail`, undefined, token)).inviteCode;
  const [upline] = await registerUsers(base, 1);
  if (!upline) throw new Error('no upline');
  const [inviter] = await registerUsers(base, 1, 1, await inviteCodeOf(upline.token));
  if (!inviter) throw new Error('no inviter');
  const users = await fundedUsers(base, admin, userCount, await inviteCodeOf(inviter.token));
  // One task per round of all users: enough for the warm-up and the measured requests.
  const finishes = Math.ceil((requests + warmUp(requests)) / users.length) + 1;
  const tasks = await customTasks(base, admin, finishes);
  for (let n = 0; n < 10; n += 1)
    await call(
      base,
      'POST',
      `${API}/admin/notice/add`,
      { title: `Notice ${n}`, body: 'Capacity model notice body.' },
      admin,
    );
  const user = (i: number) => users[i % users.length] as (typeof users)[number];
  let phone = 0;
  const pending: number[] = [];
  const kinds: Kind[] = [
    {
      kind: 'otp/send',
      amount: requests,
      request: () => {
        phone += 1;
        return {
          method: 'POST',
          path: `${API}/common/otp/send`,
          token: '',
          body: { target: `8${String(process.pid % 1000).padStart(3, '0')}${String(phone).padStart(6, '0')}`, type: 1 },
        };
      },
    },
    {
      kind: 'login',
      amount: loginRequests,
      request: (i) => ({
        method: 'POST',
        path: `${API}/common/user/login`,
        token: '',
        body: { username: user(i).username, password: user(i).password },
      }),
    },
    ...['user/detail', 'task/list', 'balance/list'].map((path) => ({
      kind: path,
      amount: requests,
      request: (i: number) => ({ method: 'GET' as const, path: `${API}/user/${path}`, token: user(i).token }),
    })),
    {
      kind: 'notice/list',
      amount: requests,
      request: (i) => ({ method: 'GET', path: `${API}/common/notice/list`, token: user(i).token }),
    },
    {
      kind: 'task/finish',
      amount: requests,
      // User varies fastest: requests in flight together belong to different users.
      request: (i) => ({
        method: 'POST',
        path: `${API}/user/task/finish`,
        token: user(i).token,
        body: { taskId: tasks[Math.floor(i / users.length)] },
      }),
    },
    {
      kind: 'withdraw/add',
      amount: requests,
      request: (i) => ({
        method: 'POST',
        path: `${API}/user/withdraw/add`,
        token: user(i).token,
        body: { amount: WITHDRAW_AMOUNT },
      }),
    },
    {
      kind: 'withdraw/review',
      amount: requests,
      request: (i) => ({
        method: 'POST',
        path: `${API}/admin/withdraw/review`,
        token: admin,
        body: { id: pending[i], action: 'approve' },
      }),
    },
    {
      kind: 'admin/withdraw/list',
      amount: requests,
      request: () => ({ method: 'GET', path: `${API}/admin/withdraw/list`, token: admin }),
    },
    {
      kind: 'admin/user/list',
      amount: requests,
      request: () => ({ method: 'GET', path: `${API}/admin/user/list`, token: admin }),
    },
  ];
  const warm = (k: Kind) => warmUp(k.amount);
  progress(`warming up every kind (${connections} connections)`);
  const used = new Map<string, number>();
  for (const k of kinds) {
    if (k.kind === 'withdraw/review') {
      const { rows } = await c.query<{ id: string }>(
        "select id::text from withdrawals where state = 'pending' order by id",
      );
      pending.push(...rows.map((r) => Number(r.id)));
    }
    await fire(base, k, 0, warm(k), connections);
    used.set(k.kind, warm(k));
  }
  await new Promise((r) => setTimeout(r, STATS_FLUSH_MS));
  const idleBefore = await counters(c, dbName);
  const idleStarted = performance.now();
  await new Promise((r) => setTimeout(r, 5000));
  const idleAfter = await counters(c, dbName);
  const backgroundWalPerSecond =
    (await walBytes(c, idleBefore.lsn, idleAfter.lsn)) / ((performance.now() - idleStarted) / 1000);
  progress(`background WAL while idle: ${backgroundWalPerSecond.toFixed(0)} B/s`);
  const pid = server.child.pid as number;
  let before = idleAfter;
  for (const k of kinds) {
    if (k.kind === 'withdraw/review') {
      // Each review approves one of the withdrawals withdraw/add just made (the warm-up approved its own).
      const { rows } = await c.query<{ id: string }>(
        "select id::text from withdrawals where state = 'pending' order by id",
      );
      pending.length = 0;
      pending.push(...rows.map((r) => Number(r.id)));
      used.set(k.kind, 0);
      if (pending.length < k.amount) k.amount = pending.length;
    }
    if (statements) await c.query('select pg_stat_statements_reset()');
    progress(`${k.kind}: ${k.amount} requests`);
    const serverBefore = cpuTicks(pid);
    const pgWatch = watchPostgresTicks(dbName);
    const result = await fire(base, k, used.get(k.kind) ?? 0, k.amount, connections);
    if (k.kind === 'withdraw/review') await payoutsSettled(c);
    const serverTicks = cpuTicks(pid) - serverBefore;
    const pgTicks = pgWatch.stop();
    const statementRows = statements
      ? (
          await c.query<{ query: string; calls: string; ms: string }>(
            `select query, calls::text, total_exec_time::text ms from pg_stat_statements s join pg_database d on d.oid = s.dbid
             where d.datname = $1 and query not like '%pg_stat_statements%' order by total_exec_time desc`,
            [dbName],
          )
        ).rows
      : [];
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS));
    const after = await counters(c, dbName);
    const tables = [...after.tables]
      .map(([name, n]) => [name, (n - (before.tables.get(name) ?? 0)) / k.amount] as const)
      .filter(([, n]) => n >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    const wal = await walBytes(c, before.lsn, after.lsn);
    const cost: KindCost = {
      kind: k.kind,
      serverUs: (serverTicks * TICK_US) / k.amount,
      postgresUs: (pgTicks * TICK_US) / k.amount,
      statementMs: statements
        ? statementRows.reduce((sum, r) => sum + Number(r.ms), 0) / k.amount
        : (after.activeMs - before.activeMs) / k.amount,
      bytes: result.throughput.total / k.amount,
      rowsWritten: (after.written - before.written) / k.amount,
      walBytes: wal / k.amount,
      entries: tables.find(([name]) => name === 'entries')?.[1] ?? 0,
      rebates: tables.find(([name]) => name === 'rebates')?.[1] ?? 0,
    };
    costs.set(k.kind, cost);
    const commits = (after.commits - before.commits) / k.amount;
    // Without pg_stat_statements: the database functions' own times (function-stats.ts's view).
    const top = statements
      ? statementRows
          .slice(0, 3)
          .map(
            (r) =>
              `${(Number(r.ms) / k.amount).toFixed(3)} ms × ${(Number(r.calls) / k.amount).toFixed(2)}: ${r.query.replace(/\s+/g, ' ').slice(0, 90)}`,
          )
      : [...after.functions]
          .map(([name, ms]) => [name, (ms - (before.functions.get(name) ?? 0)) / k.amount] as const)
          .filter(([, ms]) => ms >= 0.001)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([name, ms]) => `function ${name}: ${ms.toFixed(3)} ms`);
    const statementCount = statementRows.reduce((sum, r) => sum + Number(r.calls), 0) / k.amount;
    process.stdout.write(
      `${k.kind}\tserver ${cost.serverUs.toFixed(0)} µs\tPostgreSQL CPU ${cost.postgresUs.toFixed(0)} µs` +
        (statements
          ? `\tstatements ${cost.statementMs?.toFixed(3)} ms (${statementCount.toFixed(1)} a request)`
          : `\tactive time ${cost.statementMs?.toFixed(3)} ms`) +
        `\t${cost.bytes.toFixed(0)} B\trows written ${cost.rowsWritten.toFixed(2)}\tWAL ${cost.walBytes.toFixed(0)} B\tcommits ${commits.toFixed(2)}` +
        `\t${result.requests.average.toFixed(0)} req/s` +
        (tables.length ? `\n\ttables: ${tables.map(([name, n]) => `${name} ${n.toFixed(2)}`).join(', ')}` : '') +
        (top.length ? `\n\t${top.join('\n\t')}` : '') +
        '\n',
    );
    before = after;
  }
  const sizes = await c.query<{ bytes: string; n: string }>(
    "select pg_total_relation_size('entries')::text bytes, (select count(*) from entries)::text n",
  );
  const entryBytes = Number(sizes.rows[0]?.bytes) / Math.max(1, Number(sizes.rows[0]?.n));
  process.stdout.write(
    `entries: ${sizes.rows[0]?.n} rows, ${entryBytes.toFixed(0)} B a row with its indexes; background WAL ${backgroundWalPerSecond.toFixed(0)} B/s (${own ? 'own cluster' : 'whole shared cluster'})\n`,
  );
  printModel(costs, entryBytes);
} finally {
  await c.end();
  await server.stop();
  await database.drop();
  await own?.stop();
  process.stdout.write(`load average ${load()}\n`);
}
