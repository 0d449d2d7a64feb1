import autocannon from 'autocannon';
import pg from 'pg';
import { API, BENCH_ADMIN, controlled, login, MANY_USERS_ENV } from './lib/api';
import { BENCH_WITHDRAWAL_SETTINGS, fundedUsers } from './lib/money';
import { freshDatabase } from './lib/postgres';
import { SERVER_ENTRY, startNode } from './lib/processes';

/**
 * Where withdraw/add's database time goes (docs/decisions/round-trips-per-write.md): the built server on a fresh
 * PostgreSQL
 * database with `track_functions = all`, 64 funded users, 8 s of withdraw/add from 32 connections, then
 * PostgreSQL's own per-function times (pg_stat_user_functions) and the tables read by sequential scan:
 *
 *   npm run build -w server && npx tsx bench/function-stats.ts
 */
const database = await freshDatabase('fnstats');
if (!database) throw new Error('no pg');
const c = new pg.Client({ connectionString: database.url });
await c.connect();
await c.query(`alter database ${new URL(database.url).pathname.slice(1)} set track_functions = 'all'`);
const server = await startNode({
  args: [SERVER_ENTRY],
  env: { DATABASE_URL: database.url, WEB_CONCURRENCY: '1', ...MANY_USERS_ENV },
  readyPath: '/obj/test/t2',
});
try {
  const base = server.url;
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await controlled(base, `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  const users = await fundedUsers(base, admin, 64);
  await c.query('select pg_stat_reset()');
  let i = 0;
  const r = await autocannon({
    url: base,
    connections: 32,
    duration: 8,
    requests: [
      {
        method: 'POST',
        path: `${API}/user/withdraw/add`,
        setupRequest: (req: autocannon.Request) => {
          const u = users[i++ % users.length];
          if (!u) throw new Error('no users');
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${u.token}` },
            body: JSON.stringify({ amount: '0.05' }),
          };
        },
      },
    ],
  });
  console.log('rps', r.requests.average, JSON.stringify(r.statusCodeStats));
  await new Promise((r) => setTimeout(r, 1000));
  console.table(
    (
      await c.query(
        'select funcname, calls, round(total_time::numeric,1) total_ms, round(self_time::numeric,1) self_ms, round((total_time/nullif(calls,0))::numeric,3) per_call from pg_stat_user_functions order by total_time desc',
      )
    ).rows,
  );
  console.table(
    (
      await c.query(
        'select relname, seq_scan, seq_tup_read, idx_scan, n_live_tup from pg_stat_user_tables where seq_scan > 0 order by seq_tup_read desc limit 15',
      )
    ).rows,
  );
} finally {
  await c.end();
  await server.stop();
  await database.drop();
}
