import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { API, BENCH_ADMIN, type BenchUser, call, controlled, login, MANY_USERS_ENV, registerUsers } from './api';
import { alternate, type BenchContext } from './bench';
import { type LoadRequest, type LoadResult, runLoad } from './load';
import { freshDatabase } from './postgres';
import { type Running, startServer, startWriteCompetitor } from './processes';
import { median, progress } from './report';

const run = promisify(execFile);

/**
 * Shared by benchmarks 3 (money writes) and 4 (hot account): one PostgreSQL database, Kamai's server
 * and the write yardstick (`bench/minimal/writes.ts`, the same writes by hand) on it, many users with a
 * payout account and a balance, all invited by one upline chain, and the contenders alternated in the
 * same rounds: pgbench's TPC-B on its own database of the same server (informative), then for Kamai
 * and the yardstick each `withdraw/add` (a hold posting between two accounts of its user),
 * `task/finish` of custom tasks (a reward posting from `platform_rewards` and two rebate postings to
 * the uplines' pending rebates) and `withdraw/review` approving pending withdrawals. Both servers draw
 * from the same lists of requests, so neither repeats a request the other sent. Run once per
 * benchmark run, whichever of 3 and 4 asks first.
 */

/** Database clients of pgbench and HTTP connections of the write loads (no pipelining: each is a client). */
export function writeClients(ctx: BenchContext): number {
  return ctx.smoke ? 4 : 32;
}

/** The server's withdrawal settings for the benchmark, set through the admin API (defaults: ₹100 min, 3 a day). */
export const BENCH_WITHDRAWAL_SETTINGS = { min: '0.01', max: '50000', dailyCount: 100, dailyTotal: '100000' };
export const WITHDRAW_AMOUNT = '0.05';
/** ₹1: the level-1 rebate of 10% is then 10 paise (a rebate that rounds to 0 paise is not posted). */
const TASK_REWARD = '1.00';
/** The server's default rebate rates (level 1 10%, level 2 5%). */
export const DEFAULT_REBATES = { level1Bps: 1000, level2Bps: 500 };

/** One write measured against the yardstick in the same rounds: Kamai's runs and the competitor's. */
export interface Pair {
  kamai: LoadResult[];
  minimal: LoadResult[];
}

export interface WriteRuns {
  clients: number;
  /** `rps` is pgbench's tps, `p50` its average latency. */
  pgbench: LoadResult[];
  /** withdraw/add: a hold posting between two accounts of the requesting user. */
  withdraw: Pair;
  /** task/finish with the default rebates: a reward posting and two rebate postings to the one upline chain. */
  finish: Pair;
  /** admin/withdraw/review approving pending withdrawals. */
  review: Pair;
  /** p99 of withdraw/add at half of Kamai's peak, per round, and that rate; the competitor at the same rate. */
  withdrawHalf: Pair;
  halfRate: number;
  /** pgbench's scale (branches; 100,000 accounts each). */
  scale: number;
  users: number;
  tasks: number;
}

/** 2xx answers a second. */
export function okRate(r: LoadResult): number {
  return r.total ? (r.rps * (r.total - r.non2xx)) / r.total : 0;
}

/** Debian's pgbench of the newest installed PostgreSQL (not always on PATH), else the one on PATH. */
function pgbenchPath(): string {
  const dir = '/usr/lib/postgresql';
  const versions = existsSync(dir) ? readdirSync(dir).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => `${dir}/${v}/bin/pgbench`).find((path) => existsSync(path));
  return found ?? 'pgbench';
}

/** Connection options of a database URL for the PostgreSQL command-line tools. */
function pgArgs(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env, PGOPTIONS: '-c synchronous_commit=on' };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  return {
    args: ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres')],
    env,
  };
}

async function pgbenchInit(url: string, scale: number): Promise<void> {
  const { args, env } = pgArgs(url);
  await run(pgbenchPath(), [...args, '-i', '-q', '-s', String(scale), new URL(url).pathname.slice(1)], { env });
}

/** The built-in TPC-B-like script for `seconds`; `rps` is its tps without the initial connection time. */
async function pgbenchRun(url: string, clients: number, seconds: number): Promise<LoadResult> {
  const { args, env } = pgArgs(url);
  const { stdout } = await run(
    pgbenchPath(),
    [
      ...args,
      '-b',
      'tpcb-like',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      new URL(url).pathname.slice(1),
    ],
    { env },
  );
  const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
  const total = /number of transactions actually processed: (\d+)/.exec(stdout)?.[1];
  if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
  const nan = Number.NaN;
  return {
    rps: Number(tps),
    p50: Number(latency ?? nan),
    p99: nan,
    max: nan,
    total: Number(total ?? 0),
    non2xx: 0,
    errors: 0,
    statuses: {},
  };
}

/** A list of requests used once each, handed out in slices to consecutive load runs. */
export class Supply {
  private at = 0;
  constructor(
    private readonly label: string,
    private readonly requests: LoadRequest[],
  ) {}
  next(): LoadRequest[] {
    const left = this.requests.slice(this.at);
    if (left.length === 0) throw new Error(`${this.label}: the prepared requests are used up`);
    return left;
  }
  /** Counts what a run used: its answers plus what may have been in flight when it stopped. */
  used(result: LoadResult, inFlight: number) {
    this.at += result.total + result.errors + inFlight;
  }
  left(): number {
    return this.requests.length - this.at;
  }
}

/**
 * Registers `count` users through the API (8 at a time; invited by the admin, or by the owner of
 * `inviteCode`), each with a UPI payout account and ₹1,000 credited by the admin (`revenue/add`).
 */
export async function fundedUsers(
  base: string,
  admin: string,
  count: number,
  inviteCode?: string,
): Promise<(BenchUser & { id: number })[]> {
  progress(`registering ${count} users through the API`);
  const registered = await registerUsers(base, count, 8, inviteCode);
  progress('a payout account and ₹1,000 for each');
  const funded: (BenchUser & { id: number })[] = [];
  for (let i = 0; i < registered.length; i += 8) {
    const batch = await Promise.all(
      registered.slice(i, i + 8).map(async (u, k) => {
        const { id } = await call<{ id: number }>(base, 'GET', `${API}/user/user/detail`, undefined, u.token);
        await call(
          base,
          'POST',
          `${API}/user/wdaccount/bind`,
          { accountType: 'upi', accountNo: `bench${i + k}@okaxis`, accountName: 'Bench User' },
          u.token,
        );
        await call(base, 'POST', `${API}/admin/revenue/add`, { userId: id, amount: '1000', remark: 'bench' }, admin);
        return { ...u, id };
      }),
    );
    funded.push(...batch);
  }
  return funded;
}

/** `count` active custom tasks (claimable by anyone once) of TASK_REWARD; their ids. */
export async function customTasks(base: string, admin: string, count: number): Promise<number[]> {
  progress(`${count} custom tasks of ₹${TASK_REWARD}`);
  const ids: number[] = [];
  for (let t = 0; t < count; t += 1) {
    const task = await call<{ id: number }>(
      base,
      'POST',
      `${API}/admin/task/add`,
      // Every registered user has earned task 2's reward: an automatic condition each one meets.
      {
        section: 'hot',
        reward: TASK_REWARD,
        titles: { en_US: `Bench task ${t}` },
        verification: { kind: 'automatic', condition: { type: 'income', amount: '0.01', days: 365 } },
      },
      admin,
    );
    ids.push(task.id);
  }
  return ids;
}

/**
 * The upline chain every bench user is invited under: `top` invites `middle`, who invites the users,
 * so each task reward owes a level-1 rebate to `middle` and a level-2 rebate to `top`.
 */
export async function uplines(base: string): Promise<string> {
  const [top] = await registerUsers(base, 1);
  if (!top) throw new Error('no top upline');
  const { inviteCode } = await call<{ inviteCode: string }>(
    base,
    'GET',
    `${API}/user/user/detail`,
    undefined,
    top.token,
  );
  const [middle] = await registerUsers(base, 1, 1, inviteCode);
  if (!middle) throw new Error('no middle upline');
  return (await call<{ inviteCode: string }>(base, 'GET', `${API}/user/user/detail`, undefined, middle.token))
    .inviteCode;
}

/**
 * What every write measurement starts from: the admin's session, the benchmark's withdrawal settings
 * and the default rebates, and `count` funded users under one upline chain (`uplines`).
 */
export async function writeSetup(base: string, count: number) {
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await controlled(base, `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  await controlled(base, `${API}/admin/rebate/set`, DEFAULT_REBATES, admin);
  return { admin, users: await fundedUsers(base, admin, count, await uplines(base)) };
}

async function prepare(server: Running, users: number, tasks: number) {
  const base = server.url;
  const { admin, users: registered } = await writeSetup(base, users);
  const taskIds = await customTasks(base, admin, tasks);
  const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  // User varies fastest, so requests in flight together belong to different users.
  const withdrawals: LoadRequest[] = [];
  for (let n = 0; n < BENCH_WITHDRAWAL_SETTINGS.dailyCount; n += 1) {
    for (const u of registered) {
      withdrawals.push({
        method: 'POST',
        path: `${API}/user/withdraw/add`,
        headers: json(u.token),
        body: JSON.stringify({ amount: WITHDRAW_AMOUNT }),
      });
    }
  }
  const finishes: LoadRequest[] = [];
  for (const taskId of taskIds) {
    for (const u of registered) {
      finishes.push({
        method: 'POST',
        path: `${API}/user/task/finish`,
        headers: json(u.token),
        body: JSON.stringify({ taskId }),
      });
    }
  }
  return {
    admin,
    withdrawals: new Supply('withdraw/add', withdrawals),
    finishes: new Supply('task/finish', finishes),
    approvals: (ids: number[]): LoadRequest[] =>
      ids.map((id) => ({
        method: 'POST',
        path: `${API}/admin/withdraw/review`,
        headers: json(admin),
        body: JSON.stringify({ id, action: 'approve', reason: '' }),
      })),
  };
}

/**
 * Waits until no other session of the database is in a transaction or a statement (at most
 * `limitMs`): a run's requests still in flight when its load stops would otherwise overlap the next
 * run of the other server. Kamai's postings lock a claim's accounts posting by posting (the wallet,
 * then each upline's), the yardstick all at once in id order, so two such transactions at once can
 * deadlock, and PostgreSQL takes `deadlock_timeout` (1 s) to break it, stalling the next run's start.
 */
async function settled(client: pg.Client, limitMs = 10_000): Promise<void> {
  const until = performance.now() + limitMs;
  while (performance.now() < until) {
    const { rows } = await client.query(
      `select count(*)::int as busy from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and state in ('active', 'idle in transaction', 'idle in transaction (aborted)')`,
    );
    if (rows[0]?.busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits (at most a minute) until no job is due: the setup's account checks have run. */
export async function jobsDone(client: pg.Client): Promise<void> {
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    const { rows } = await client.query(
      'select count(*)::int as due from jobs where done_at is null and run_at <= now()',
    );
    if (rows[0]?.due === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the setup left jobs due after a minute');
}

/** The pending withdrawals, oldest first: what the next review run approves. */
async function pendingIds(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select id from withdrawals where state = 'pending' order by id");
    return rows.map((r) => Number(r.id));
  } finally {
    await client.end();
  }
}

async function measure(ctx: BenchContext): Promise<WriteRuns | undefined> {
  const clients = writeClients(ctx);
  const scale = ctx.smoke ? 1 : clients;
  // Each user may withdraw DAILY_COUNT_MAX (100) times a day, shared by Kamai and the competitor: 800
  // users give 80,000 requests for both; the smoke's 96 give 9,600, more than its short runs use
  // (without job loops in Kamai's process both answer over 1,000 a second; 32 users ran out).
  const users = ctx.smoke ? 96 : 800;
  // Each task is one claim per user: enough that no run on a fast machine uses them up.
  const tasks = ctx.smoke ? 150 : 250;
  const ours = await freshDatabase('write');
  if (!ours) return undefined;
  const bench = await freshDatabase('pgbench');
  try {
    if (!bench) throw new Error('PostgreSQL answered once, then not');
    progress(`pgbench -i -s ${scale} on its own database`);
    await pgbenchInit(bench.url, scale);
    let server = await startServer({ DATABASE_URL: ours.url, ...MANY_USERS_ENV });
    const minimal = await startWriteCompetitor(ours.url).catch(async (error) => {
      await server.stop();
      throw error;
    });
    const watcher = new pg.Client({ connectionString: ours.url });
    await watcher.connect();
    try {
      const { withdrawals, finishes, approvals } = await prepare(server, users, tasks);
      // Measured without job loops in Kamai's process (JOB_WORKERS=0, a web-only process): the yardstick's
      // approvals enqueue the same payout jobs and run none, and Kamai's loops would pay out both
      // servers' approvals on Kamai's CPU. The setup's jobs (the payout accounts' checks) run first.
      await jobsDone(watcher);
      await server.stop();
      server = await startServer({ DATABASE_URL: ours.url, ...MANY_USERS_ENV, JOB_WORKERS: '0' });
      const seconds = Math.max(1, Math.round(ctx.seconds));
      const write = (target: Running, supply: Supply) => async () => {
        const result = await runLoad({
          url: target.url,
          connections: clients,
          durationSec: ctx.seconds,
          requests: supply.next(),
          spread: true,
        });
        supply.used(result, clients);
        await settled(watcher);
        return result;
      };
      // Approvals outrun the requests that make them: each review run approves a number of the pending
      // withdrawals (half of those pending, at most perReview), timed, not for a fixed time.
      const perReview = ctx.smoke ? 20 : 1000;
      const review = (target: Running) => async () => {
        const pending = await pendingIds(ours.url);
        const ids = pending.slice(0, Math.min(perReview, Math.floor(pending.length / 2)));
        if (ids.length < clients) throw new Error('no pending withdrawals left to approve');
        const result = await runLoad({
          url: target.url,
          connections: clients,
          durationSec: 60,
          amount: ids.length,
          requests: approvals(ids),
          spread: true,
        });
        await settled(watcher);
        return result;
      };
      // Also the bank of pending withdrawals the reviews approve (they outrun the requests).
      for (const target of [server, minimal]) {
        const [probe] = withdrawals.next();
        if (!probe) break;
        const res = await fetch(`${target.url}${probe.path}`, {
          method: 'POST',
          headers: probe.headers,
          body: probe.body,
        });
        if (!res.ok) throw new Error(`withdraw/add answered ${res.status}: ${await res.text()}`);
        withdrawals.used({ total: 1, errors: 0 } as LoadResult, 0);
      }
      progress('warming up');
      const warm = [];
      for (const target of [server, minimal, server, minimal]) warm.push(await write(target, withdrawals)());
      warm.push(await write(server, finishes)(), await write(minimal, finishes)());
      // The reviews' first statements, each server's: a second of approvals.
      for (const target of [server, minimal]) {
        warm.push(
          await runLoad({
            url: target.url,
            connections: clients,
            durationSec: 1,
            amount: Math.min(perReview / 4, 200),
            requests: approvals(await pendingIds(ours.url)),
            spread: true,
          }),
        );
      }
      const refused = statusNote(warm);
      if (refused) progress(`warm-up answers besides 2xx: ${refused}`);
      progress(
        `${ctx.rounds} rounds of ${ctx.seconds} s, ${clients} clients, Kamai and the competitor each: pgbench TPC-B (${seconds} s), withdraw/add, task/finish with two rebate levels, withdraw/review approve`,
      );
      const peaks = await alternate(ctx.rounds, {
        pgbench: () => pgbenchRun(bench.url, clients, seconds),
        withdrawKamai: write(server, withdrawals),
        withdrawMinimal: write(minimal, withdrawals),
        finishKamai: write(server, finishes),
        finishMinimal: write(minimal, finishes),
        reviewKamai: review(server),
        reviewMinimal: review(minimal),
      });
      const halfRate = Math.max(1, Math.round(median(peaks.withdrawKamai.map(okRate)) / 2));
      progress(`withdraw/add p99 at ${halfRate} req/s (half of Kamai's peak), ${ctx.rounds} rounds each`);
      const paced = (target: Running) => async () => {
        const result = await runLoad({
          url: target.url,
          connections: clients,
          rate: halfRate,
          durationSec: ctx.seconds,
          requests: withdrawals.next().slice(0, Math.ceil(halfRate * ctx.seconds) + 10),
        });
        withdrawals.used(result, 0);
        await settled(watcher);
        return result;
      };
      const half = await alternate(ctx.rounds, { kamai: paced(server), minimal: paced(minimal) });
      progress(`left unused: ${withdrawals.left()} withdrawals, ${finishes.left()} task finishes`);
      return {
        clients,
        pgbench: peaks.pgbench,
        withdraw: { kamai: peaks.withdrawKamai, minimal: peaks.withdrawMinimal },
        finish: { kamai: peaks.finishKamai, minimal: peaks.finishMinimal },
        review: { kamai: peaks.reviewKamai, minimal: peaks.reviewMinimal },
        withdrawHalf: half,
        halfRate,
        scale,
        users,
        tasks,
      };
    } finally {
      await watcher.end().catch(() => undefined);
      await minimal.stop();
      await server.stop();
    }
  } finally {
    await bench?.drop();
    await ours.drop();
  }
}

const cache = new WeakMap<BenchContext, Promise<WriteRuns | undefined>>();

/** The write runs of this benchmark run (measured once for 3 and 4); undefined without PostgreSQL. */
export function writeRuns(ctx: BenchContext): Promise<WriteRuns | undefined> {
  let runs = cache.get(ctx);
  if (!runs) {
    runs = measure(ctx);
    cache.set(ctx, runs);
  }
  return runs;
}

/** `12×409 3×500` of the runs' non-2xx answers, or ''. */
export function statusNote(runs: LoadResult[]): string {
  const counts: Record<string, number> = {};
  let errors = 0;
  for (const r of runs) {
    errors += r.errors;
    for (const [code, n] of Object.entries(r.statuses))
      if (!code.startsWith('2')) counts[code] = (counts[code] ?? 0) + n;
  }
  const parts = Object.entries(counts).map(([code, n]) => `${n}×${code}`);
  if (errors) parts.push(`${errors} connection errors`);
  return parts.join(' ');
}
