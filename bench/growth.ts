import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { API, type BenchUser, call, MANY_USERS_ENV, registerUsers } from './lib/api';
import { alternate, type BenchContext, type Benchmark } from './lib/bench';
import { type LoadResult, runLoad } from './lib/load';
import { freshDatabase } from './lib/postgres';
import { type Running, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';
import { seedLedgerSql } from './lib/seed-ledger';

const MAX_RATIO = 1.5;
/** The measured user's own history: enough for page 50 of 20 (the default page) and a bit more. */
const OWN_ROWS = 1020;
const PAGE = 50;

/**
 * The measured user's own rows, the same in both databases: OWN_ROWS revenue credits to their wallet
 * (balance_after exact, from the platform revenue account) and OWN_ROWS rejected withdrawals with
 * their two history rows (no postings: a rejected withdrawal's hold and release net to nothing).
 */
function ownRowsSql(userId: number): string {
  return `
insert into accounts (user_id, kind) values (${userId}, 'wallet') on conflict do nothing;
insert into postings (type, idempotency_key)
  select 'manual_credit', 'bench-own:' || g from generate_series(1, ${OWN_ROWS}) g;
create temporary table own_postings as
  select id, split_part(idempotency_key, ':', 2)::bigint as n from postings where idempotency_key like 'bench-own:%';
insert into entries (posting_id, account_id, amount, balance_after)
  select p.id, w.id, 100 + p.n, w.balance + sum(100 + p.n) over (order by p.id)
  from own_postings p, (select id, balance from accounts where user_id = ${userId} and kind = 'wallet') w
  order by p.id;
insert into entries (posting_id, account_id, amount)
  select p.id, r.id, -(100 + p.n)
  from own_postings p, (select id from accounts where kind = 'platform_revenue' and user_id is null) r
  order by p.id;
update accounts set balance = balance + (select sum(100 + n) from own_postings)
  where user_id = ${userId} and kind = 'wallet';
insert into withdrawals (user_id, account_id, account_type, ifsc, account_no, account_name, amount, state, reason, finished_at)
  select ${userId}, a.id, a.account_type, a.ifsc, a.account_no, a.account_name, 10000 + g, 'rejected', 'bench', now()
  from generate_series(1, ${OWN_ROWS}) g, (select * from payout_accounts where user_id = ${userId} limit 1) a
  order by g;
insert into withdrawal_history (withdrawal_id, from_state, to_state, reason, actor_id)
  select w.id, s.from_state, s.to_state, s.reason, ${userId}
  from withdrawals w, (values (null, 'pending', null), ('pending', 'rejected', 'bench')) s(from_state, to_state, reason)
  where w.user_id = ${userId}
  order by w.id;
drop table own_postings;
analyze;
`;
}

/** Other users' withdrawals (a quarter as many as the entries), rejected, two history rows each. */
function otherWithdrawalsSql(count: number): string {
  return `
insert into payout_accounts (user_id, account_type, is_default, account_no, account_name)
  select id, 'upi', true, 'seed' || id || '@okaxis', 'Seed User' from users where username like 'seed%@bench.kamai.local';
insert into withdrawals (user_id, account_id, account_type, ifsc, account_no, account_name, amount, state, reason, finished_at)
  select a.user_id, a.id, 'upi', '', a.account_no, a.account_name, 10000, 'rejected', 'seed', now()
  from generate_series(1, ${count}) g
  join (select *, (row_number() over (order by id)) - 1 as k from payout_accounts
        where account_name = 'Seed User') a on a.k = g % (select count(*) from payout_accounts where account_name = 'Seed User')
  order by g;
insert into withdrawal_history (withdrawal_id, from_state, to_state, reason)
  select w.id, s.from_state, s.to_state, s.reason
  from withdrawals w, (values (null, 'pending', null), ('pending', 'rejected', 'seed')) s(from_state, to_state, reason)
  where w.reason = 'seed'
  order by w.id;
analyze;
`;
}

type Backend = 'PostgreSQL' | 'PGlite';

interface Grown {
  label: string;
  server: Running;
  user: BenchUser;
  /** The path of each measured page. */
  paths: Record<string, string>;
  seedMs: number;
  /** Stops the server and drops the database (or removes the data directory). */
  release(): Promise<void>;
}

/** Follows nextCursor to page `page` (1 = first) of a list; the path of that page. */
async function pagePath(base: string, route: string, page: number, token: string): Promise<string> {
  let cursor: string | null = null;
  for (let i = 1; i < page; i += 1) {
    const path: string = `${route}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
    const data: { nextCursor: string | null } = await call(base, 'GET', path, undefined, token);
    if (!data.nextCursor) throw new Error(`${route} has no page ${i + 1}`);
    cursor = data.nextCursor;
  }
  return `${route}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
}

/** Registers the measured user through the API and binds their payout account; their id. */
async function measuredUser(base: string): Promise<BenchUser & { id: number }> {
  const [user] = await registerUsers(base, 1);
  if (!user) throw new Error('no user registered');
  const { id } = await call<{ id: number }>(base, 'GET', `${API}/user/user/detail`, undefined, user.token);
  await call(
    base,
    'POST',
    `${API}/user/wdaccount/bind`,
    { accountType: 'upi', accountNo: 'growth@okaxis', accountName: 'Bench User' },
    user.token,
  );
  return { ...user, id };
}

function seedSql(entries: number, userId: number): string[] {
  return [
    seedLedgerSql({ entries, users: Math.min(1000, Math.max(10, entries / 100)) }),
    otherWithdrawalsSql(entries / 4),
    ownRowsSql(userId),
  ];
}

async function pagesOf(base: string, token: string): Promise<Record<string, string>> {
  const paths: Record<string, string> = {};
  for (const route of ['balance/list', 'withdraw/list']) {
    paths[`${route} page 1`] = await pagePath(base, `${API}/user/${route}`, 1, token);
    paths[`${route} page ${PAGE}`] = await pagePath(base, `${API}/user/${route}`, PAGE, token);
  }
  return paths;
}

/** PostgreSQL: seeded with SQL while the server runs. */
async function growPostgres(label: string, entries: number): Promise<Grown | undefined> {
  const database = await freshDatabase(`growth${label}`);
  if (!database) return undefined;
  let server: Running | undefined;
  try {
    server = await startServer({ DATABASE_URL: database.url, ...MANY_USERS_ENV });
    const user = await measuredUser(server.url);
    progress(
      `PostgreSQL ${label}: seeding ${entries} ledger entries and ${entries / 4} withdrawals of other users with SQL`,
    );
    const started = performance.now();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const sql of seedSql(entries, user.id)) await client.query(sql);
    } finally {
      await client.end();
    }
    const seedMs = performance.now() - started;
    const running = server;
    return {
      label,
      server,
      user,
      paths: await pagesOf(server.url, user.token),
      seedMs,
      async release() {
        await running.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await server?.stop();
    await database.drop();
    throw error;
  }
}

/** PGlite: one process owns the directory, so the server stops while PGlite seeds it, then starts again. */
async function growPglite(label: string, entries: number): Promise<Grown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-growth-'));
  let server: Running | undefined;
  try {
    server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir, ...MANY_USERS_ENV });
    const user = await measuredUser(server.url);
    await server.stop();
    progress(
      `PGlite ${label}: seeding ${entries} ledger entries and ${entries / 4} withdrawals of other users with SQL`,
    );
    const started = performance.now();
    const db = await PGlite.create(join(dataDir, 'pglite'));
    try {
      for (const sql of seedSql(entries, user.id)) await db.exec(sql);
    } finally {
      await db.close();
    }
    const seedMs = performance.now() - started;
    server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir, ...MANY_USERS_ENV });
    const running = server;
    return {
      label,
      server,
      user,
      paths: await pagesOf(server.url, user.token),
      seedMs,
      async release() {
        await running.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function release(grown: Grown | undefined) {
  await grown?.release();
}

async function measure(ctx: BenchContext, backend: Backend, small: Grown, big: Grown, bigEntries: number) {
  const rate = ctx.smoke ? 20 : 50;
  const rows: Row[] = [];
  const bigLabel = bigEntries === 1_000_000 ? '10^6' : String(bigEntries);
  for (const name of Object.keys(small.paths)) {
    const one = (g: Grown) => () =>
      runLoad({
        url: `${g.server.url}${g.paths[name]}`,
        connections: 4,
        rate,
        durationSec: ctx.seconds,
        headers: { authorization: `Bearer ${g.user.token}` },
      });
    progress(`${backend} ${name}: ${ctx.rounds} rounds of ${rate} req/s, 10^3 vs ${bigLabel} entries`);
    if (!ctx.smoke) await alternate(1, { small: one(small), big: one(big) });
    const runs = await alternate(ctx.rounds, { small: one(small), big: one(big) });
    const bad = (list: LoadResult[]) => list.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    const figure = median(runs.big.map((r) => r.p50));
    const baseline = median(runs.small.map((r) => r.p50));
    const ratio = figure / baseline;
    const errors = bad(runs.big) + bad(runs.small);
    const informative = backend === 'PGlite';
    rows.push({
      name: `6 growth (${backend}${informative ? ', informative' : ''}): GET ${name}, median latency with ${bigLabel} entries`,
      figure,
      unit: 'ms',
      baseline: { label: 'with 10^3 entries', value: baseline, unit: 'ms' },
      ratio,
      target: `ratio ≤ ${MAX_RATIO.toFixed(2)}`,
      pass: informative ? undefined : ratio <= MAX_RATIO && errors === 0,
      note: `p99 ${median(runs.big.map((r) => r.p99)).toFixed(1)} vs ${median(runs.small.map((r) => r.p99)).toFixed(1)} ms; median of ${ctx.rounds}${errors ? `; ${errors} non-2xx/errors` : ''}`,
    });
  }
  rows[0] = { ...(rows[0] as Row), note: `${(rows[0] as Row).note}; seeded in ${(big.seedMs / 1000).toFixed(0)} s` };
  return rows;
}

/**
 * 6. Growth: a user's `balance/list` and `withdraw/list`, first page and page 50 (following
 * nextCursor), on a database with 10^3 other ledger entries against one with 10^6 (seeded with SQL),
 * both servers up at once and alternated; latency at a fixed, light rate (median; p99 in the note).
 * PostgreSQL first (the target), then PGlite (informative; not in a smoke run).
 */
export const growth: Benchmark = {
  id: 6,
  title: 'growth',
  async run(ctx) {
    const bigEntries = ctx.smoke ? 10_000 : 1_000_000;
    const rows: Row[] = [];
    let small: Grown | undefined;
    let big: Grown | undefined;
    try {
      small = await growPostgres('small', 1000);
      if (small) {
        big = await growPostgres('big', bigEntries);
        if (!big) throw new Error('PostgreSQL answered once, then not');
        rows.push(...(await measure(ctx, 'PostgreSQL', small, big, bigEntries)));
      } else {
        progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
      }
    } finally {
      await release(big);
      await release(small);
    }
    // PGlite is informative and needs four more server starts: left out of the smoke run (CI).
    if (ctx.smoke) return rows;
    small = undefined;
    big = undefined;
    try {
      small = await growPglite('small', 1000);
      big = await growPglite('big', bigEntries);
      rows.push(...(await measure(ctx, 'PGlite', small, big, bigEntries)));
    } finally {
      await release(big);
      await release(small);
    }
    return rows;
  },
};
