import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { API, BENCH_ADMIN, type BenchUser, call, login, MANY_USERS_ENV, registerUsers } from './api';
import { alternate, type BenchContext } from './bench';
import { type LoadRequest, type LoadResult, runLoad } from './load';
import { freshDatabase } from './postgres';
import { type Running, startServer } from './processes';
import { median, progress } from './report';

const run = promisify(execFile);

/**
 * Shared by benchmarks 3 (money write vs pgbench) and 4 (hot account): one PostgreSQL database and
 * server, many users with a payout account and a balance, and three contenders alternated in the
 * same rounds: pgbench's TPC-B on its own database of the same server, `withdraw/add` (each a hold
 * posting between two accounts of its user) and `task/finish` of custom tasks (each a reward posting
 * from the one `platform_rewards` account). Run once per benchmark run, whichever of 3 and 4 asks first.
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
const DEFAULT_REBATES = { level1Bps: 1000, level2Bps: 500 };

export interface WriteRuns {
  clients: number;
  /** `rps` is pgbench's tps, `p50` its average latency. */
  pgbench: LoadResult[];
  withdraw: LoadResult[];
  hot: LoadResult[];
  /** The same task/finish load with the default rebates on: each credit also locks the inviter's wallet (informative). */
  inviter: LoadResult[];
  /** p99 of withdraw/add at half of its peak, per round, and that rate. */
  withdrawHalf: LoadResult[];
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

async function prepare(server: Running, users: number, tasks: number) {
  const base = server.url;
  const admin = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  await call(base, 'POST', `${API}/admin/settings/set`, { withdrawal: BENCH_WITHDRAWAL_SETTINGS }, admin);
  // Rebates off: every user here has the admin as inviter, whose wallet would then take a locked
  // rebate posting with every credit (a hot row of its own, not the platform account measured).
  await call(base, 'POST', `${API}/admin/rebate/set`, { level1Bps: 0, level2Bps: 0 }, admin);
  const registered = await fundedUsers(base, admin, users);
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
  };
}

async function measure(ctx: BenchContext): Promise<WriteRuns | undefined> {
  const clients = writeClients(ctx);
  const scale = ctx.smoke ? 1 : clients;
  // Each user may withdraw DAILY_COUNT_MAX (100) times a day: 400 users give 40,000 requests. 200 ran
  // out at ~780 req/s (the last runs got 409 daily_count_reached, session 6).
  const users = ctx.smoke ? 8 : 400;
  // Each task is one claim per user: enough that no run on a fast machine uses them up (a smoke run on a
  // quiet CI machine finished 160 in half a second).
  const tasks = ctx.smoke ? 150 : 250;
  const ours = await freshDatabase('write');
  if (!ours) return undefined;
  const bench = await freshDatabase('pgbench');
  try {
    if (!bench) throw new Error('PostgreSQL answered once, then not');
    progress(`pgbench -i -s ${scale} on its own database`);
    await pgbenchInit(bench.url, scale);
    const server = await startServer({ DATABASE_URL: ours.url, ...MANY_USERS_ENV });
    try {
      const { admin, withdrawals, finishes } = await prepare(server, users, tasks);
      const rebates = (on: boolean) =>
        call(
          server.url,
          'POST',
          `${API}/admin/rebate/set`,
          on ? DEFAULT_REBATES : { level1Bps: 0, level2Bps: 0 },
          admin,
        );
      const withRebates = async () => {
        await rebates(true);
        try {
          return await write(finishes)();
        } finally {
          await rebates(false);
        }
      };
      const seconds = Math.max(1, Math.round(ctx.seconds));
      const write = (supply: Supply) => async () => {
        const result = await runLoad({
          url: server.url,
          connections: clients,
          durationSec: ctx.seconds,
          requests: supply.next(),
          spread: true,
        });
        supply.used(result, clients);
        return result;
      };
      if (!ctx.smoke) {
        progress('warming up');
        await write(withdrawals)();
        await write(finishes)();
      }
      progress(
        `${ctx.rounds} rounds of ${ctx.seconds} s, ${clients} clients: pgbench TPC-B (${seconds} s), withdraw/add, task/finish, task/finish with rebates to one inviter`,
      );
      const peaks = await alternate(ctx.rounds, {
        pgbench: () => pgbenchRun(bench.url, clients, seconds),
        withdraw: write(withdrawals),
        hot: write(finishes),
        inviter: withRebates,
      });
      const halfRate = Math.max(1, Math.round(median(peaks.withdraw.map(okRate)) / 2));
      progress(`withdraw/add p99 at ${halfRate} req/s (half of its peak), ${ctx.rounds} rounds`);
      const withdrawHalf: LoadResult[] = [];
      for (let i = 0; i < ctx.rounds; i += 1) {
        const result = await runLoad({
          url: server.url,
          connections: clients,
          rate: halfRate,
          durationSec: ctx.seconds,
          requests: withdrawals.next().slice(0, Math.ceil(halfRate * ctx.seconds) + 10),
        });
        withdrawals.used(result, 0);
        withdrawHalf.push(result);
      }
      progress(`left unused: ${withdrawals.left()} withdrawals, ${finishes.left()} task finishes`);
      return { clients, ...peaks, withdrawHalf, halfRate, scale, users, tasks };
    } finally {
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
