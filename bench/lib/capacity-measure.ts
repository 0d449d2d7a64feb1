import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type pg from 'pg';
import { progress } from './report';

/** Per-answer measurements: process CPU from /proc (bench/cpu-per-request.ts, bench/capacity.ts), and for bench/capacity.ts its load and PostgreSQL's counters. */

/** utime + stime of a process (all its threads), in clock ticks (USER_HZ, 100 a second). */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ticks of each PostgreSQL backend serving `database` (their title names it), by process id. */
function backendTicks(database: string): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) continue;
      ticks.set(Number(pid), cpuTicks(Number(pid)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

/** CPU ticks of the PostgreSQL backends serving `database` now (a backend that ended takes its ticks with it). */
export function postgresTicks(database: string): number {
  let sum = 0;
  for (const ticks of backendTicks(database).values()) sum += ticks;
  return sum;
}

/**
 * The CPU ticks PostgreSQL's backends for `database` spend from now until `stop()`. Backends are read
 * every 200 ms, so one that ends meanwhile (a pool closes idle connections) keeps what it had spent
 * by its last reading instead of taking it out of the sum.
 */
export function watchPostgresTicks(database: string): { stop(): number } {
  const first = backendTicks(database);
  const last = new Map(first);
  const read = () => {
    for (const [pid, ticks] of backendTicks(database)) last.set(pid, ticks);
  };
  const timer = setInterval(read, 200);
  return {
    stop() {
      clearInterval(timer);
      read();
      let spent = 0;
      for (const [pid, ticks] of last) spent += ticks - (first.get(pid) ?? 0);
      return spent;
    },
  };
}

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  token: string;
  body?: unknown;
}

export interface Kind {
  kind: string;
  /** The i-th request of the kind: writes never repeat one (each is a new withdrawal, finish, login). */
  request(i: number): Request;
  amount: number;
}

/**
 * Sends `amount` requests of the kind, from its `from`-th, over `connections`; any answer but 2xx
 * fails the run, with the answer to one more request of the kind to say why.
 */
export function fire(
  base: string,
  kind: Kind,
  from: number,
  amount: number,
  connections: number,
): Promise<autocannon.Result> {
  let next = from;
  return new Promise((done, fail) => {
    autocannon(
      {
        url: base,
        connections,
        amount,
        timeout: 60,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => {
              const r = kind.request(next++);
              return {
                ...req,
                method: r.method,
                path: r.path,
                headers: {
                  ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
                  ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
                },
                body: r.body === undefined ? undefined : JSON.stringify(r.body),
              };
            },
          },
        ],
      },
      (error, result) => {
        if (error) return fail(error);
        if (!result.non2xx && !result.errors) return done(result);
        const r = kind.request(next);
        fetch(`${base}${r.path}`, {
          method: r.method,
          headers: {
            ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
            ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        })
          .then((res) => res.text())
          .then(
            (text) =>
              fail(
                new Error(
                  `${kind.kind}: ${result.non2xx} non-2xx, ${result.errors} errors ${JSON.stringify(result.statusCodeStats)}; one more answered ${text.slice(0, 300)}`,
                ),
              ),
            fail,
          );
      },
    );
  });
}

/**
 * PostgreSQL's counters of the run's database: WAL position, commits, rows written, the time its
 * sessions spent executing statements (`active_time`, ms), rows written per table and time per
 * database function (`pg_stat_user_functions`, ms; the database sets `track_functions = all`).
 */
export interface Counters {
  lsn: string;
  commits: number;
  written: number;
  activeMs: number;
  tables: Map<string, number>;
  functions: Map<string, number>;
}

export async function counters(c: pg.Client, database: string): Promise<Counters> {
  const db = await c.query<{ lsn: string; commits: string; written: string; active: string }>(
    'select pg_current_wal_lsn()::text lsn, xact_commit::text commits, (tup_inserted + tup_updated + tup_deleted)::text written, active_time::text active from pg_stat_database where datname = $1',
    [database],
  );
  const functions = await c.query<{ funcname: string; ms: string }>(
    'select funcname, total_time::text ms from pg_stat_user_functions',
  );
  const tables = await c.query<{ relname: string; written: string }>(
    'select relname, (n_tup_ins + n_tup_upd + n_tup_del)::text written from pg_stat_user_tables',
  );
  const row = db.rows[0];
  if (!row) throw new Error(`no pg_stat_database row for ${database}`);
  return {
    lsn: row.lsn,
    commits: Number(row.commits),
    written: Number(row.written),
    activeMs: Number(row.active),
    tables: new Map(tables.rows.map((t) => [t.relname, Number(t.written)])),
    functions: new Map(functions.rows.map((f) => [f.funcname, Number(f.ms)])),
  };
}

export async function walBytes(c: pg.Client, from: string, to: string): Promise<number> {
  const { rows } = await c.query<{ d: string }>('select pg_wal_lsn_diff($1, $2)::text d', [to, from]);
  return Number(rows[0]?.d ?? Number.NaN);
}

/**
 * An approval starts the payout (a job dispatches it to the sandbox gateway, whose callback marks it
 * paid): its cost is the approval's, so the reviews' figures wait until no approved payout is left open.
 */
export async function payoutsSettled(c: pg.Client): Promise<void> {
  const deadline = performance.now() + 120_000;
  for (;;) {
    const { rows } = await c.query<{ n: string }>(
      "select count(*)::text n from withdrawals where state in ('approved', 'processing')",
    );
    if (Number(rows[0]?.n) === 0) return;
    if (performance.now() > deadline) {
      progress(`${rows[0]?.n} payouts still open after 120 s: the reviews' figures leave their rest out`);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
