/**
 * The capacity model of docs/operations.md ("Capacity model"): a stated daily mix and the arithmetic
 * from measured cost per request to what one server core, one primary and its replicas hold.
 * bench/capacity.ts measures the costs and prints this model from them.
 */

/** What one request of a kind cost in a measured run. */
export interface KindCost {
  kind: string;
  /** The server process's CPU (utime + stime, all threads), µs per answer. */
  serverUs: number;
  /** CPU of PostgreSQL's backends serving the run's database, µs per answer. */
  postgresUs: number;
  /**
   * Statements' execution time per answer, ms: pg_stat_statements' when the server loads it, else the
   * database's `active_time` (all its sessions, the job runner's too). Lock waits count in both.
   */
  statementMs?: number;
  /** Bytes of the answer on the wire (status line, headers, body). */
  bytes: number;
  /** Rows inserted, updated and deleted per answer. */
  rowsWritten: number;
  /** WAL bytes per answer. */
  walBytes: number;
  /** Of those rows, ledger entries inserted per answer (storage growth). */
  entries: number;
  /**
   * Rebate rows per answer: each is released after its hold by one more posting of two entries
   * (docs/decisions/rebate-hold.md), which the run does not wait for; the model adds them.
   */
  rebates: number;
}

/**
 * Where a kind is answered: `primary` (writes, and a user's own reads that must see that user's
 * writes at once) or `replica` (reads that may be a moment stale: console lists, notices).
 */
export type Route = 'primary' | 'replica';

export interface MixLine {
  kind: string;
  /** Requests per active user per day (staff reads and reviews are expressed per active user too). */
  perActiveUser: number;
  route: Route;
}

/**
 * The stated daily mix: what an active user does in a day. Reviews follow withdrawals one to one
 * (every withdrawal is reviewed once); console list pages follow the reviews (one page of withdrawals
 * per two reviews, one user list page per ten).
 */
export const DAILY_MIX: MixLine[] = [
  { kind: 'otp/send', perActiveUser: 0.05, route: 'primary' },
  { kind: 'login', perActiveUser: 0.3, route: 'primary' },
  { kind: 'user/detail', perActiveUser: 6, route: 'primary' },
  { kind: 'task/list', perActiveUser: 5, route: 'primary' },
  { kind: 'task/finish', perActiveUser: 2, route: 'primary' },
  { kind: 'balance/list', perActiveUser: 2, route: 'primary' },
  { kind: 'notice/list', perActiveUser: 1, route: 'replica' },
  { kind: 'withdraw/add', perActiveUser: 0.2, route: 'primary' },
  { kind: 'withdraw/review', perActiveUser: 0.2, route: 'primary' },
  { kind: 'admin/withdraw/list', perActiveUser: 0.1, route: 'replica' },
  { kind: 'admin/user/list', perActiveUser: 0.02, route: 'replica' },
];

export const MODEL = {
  /** Registered users active on a given day. */
  activeShare: 0.2,
  /** The busiest hour carries this many times an average hour's requests (evening peak in India). */
  peakHourFactor: 3,
  /** A core is planned to this share of its time at the peak hour, leaving room for bursts and jobs. */
  targetUtilisation: 0.6,
  /** DATABASE_POOL_SIZE's default: connections one server process holds at most. */
  poolPerInstance: 20,
};

/**
 * What one PostgreSQL primary is taken to offer: a 16-vCPU machine, max_connections 100 (the default,
 * and this machine's), 2 TB of disk for one year's ledger entries, WAL 50 MB/s (archiving and
 * streaming it to replicas, not the disk's limit), 2,000 write commits a second (this machine's
 * pgbench TPC-B at 32 clients reached 1,458-1,524 tps, docs/performance.md benchmark 3).
 */
export const PRIMARY_BUDGET = { cores: 16, connections: 100, ledgerGBPerYear: 2000, walMBPerSecond: 50, commits: 2000 };

export function budgetText(): string {
  const b = PRIMARY_BUDGET;
  return `${b.cores} cores, ${b.connections} connections, ${b.ledgerGBPerYear} GB of entries a year, WAL ${b.walMBPerSecond} MB/s, ${b.commits} commits/s`;
}

export const SIZES = [350_000, 5_000_000, 50_000_000];

export interface SizeFigures {
  users: number;
  activeUsers: number;
  requestsPerDay: number;
  peakPerSecond: number;
  writesPeakPerSecond: number;
  /** Server cores at the target utilisation (one instance = one process = one core). */
  serverCores: number;
  /** Primary cores (PostgreSQL CPU) when replicas take their share, and when they do not. */
  primaryCores: number;
  primaryCoresNoReplicas: number;
  /** Replica cores the replica-routed reads need. */
  replicaCores: number;
  walMBPerSecondPeak: number;
  walGBPerDay: number;
  commitsPeakPerSecond: number;
  /** Connections the server instances hold at most (instances × pool). */
  connections: number;
  entriesPerYear: number;
  entriesGBPerYear: number;
}

const WRITES = new Set(['otp/send', 'login', 'task/finish', 'withdraw/add', 'withdraw/review']);

export function isWrite(kind: string): boolean {
  return WRITES.has(kind);
}

export function figuresFor(users: number, costs: Map<string, KindCost>, entryBytes: number): SizeFigures {
  const activeUsers = users * MODEL.activeShare;
  const peakShare = MODEL.peakHourFactor / 24 / 3600;
  let requestsPerDay = 0;
  let writesPerDay = 0;
  let serverUs = 0;
  let primaryUs = 0;
  let replicaUs = 0;
  let wal = 0;
  let entries = 0;
  for (const line of DAILY_MIX) {
    const cost = costs.get(line.kind);
    if (!cost) throw new Error(`no measured cost for ${line.kind}`);
    const perDay = activeUsers * line.perActiveUser;
    requestsPerDay += perDay;
    if (isWrite(line.kind)) writesPerDay += perDay;
    serverUs += perDay * cost.serverUs;
    if (line.route === 'primary') primaryUs += perDay * cost.postgresUs;
    else replicaUs += perDay * cost.postgresUs;
    wal += perDay * cost.walBytes;
    entries += perDay * (cost.entries + 2 * cost.rebates);
  }
  const cores = (usPerDay: number) => (usPerDay * peakShare) / 1e6 / MODEL.targetUtilisation;
  const serverCores = cores(serverUs);
  const instances = Math.max(1, Math.ceil(serverCores));
  return {
    users,
    activeUsers,
    requestsPerDay,
    peakPerSecond: requestsPerDay * peakShare,
    writesPeakPerSecond: writesPerDay * peakShare,
    serverCores,
    primaryCores: cores(primaryUs),
    primaryCoresNoReplicas: cores(primaryUs + replicaUs),
    replicaCores: cores(replicaUs),
    walMBPerSecondPeak: (wal * peakShare) / 1e6,
    walGBPerDay: wal / 1e9,
    commitsPeakPerSecond: writesPerDay * peakShare,
    connections: instances * MODEL.poolPerInstance,
    entriesPerYear: entries * 365,
    entriesGBPerYear: (entries * 365 * entryBytes) / 1e9,
  };
}

/** Each resource's share of one primary's budget at this size, the largest (the first to run out) first. */
export function limits(f: SizeFigures): { resource: string; share: number }[] {
  const b = PRIMARY_BUDGET;
  return [
    { resource: 'primary CPU', share: f.primaryCores / b.cores },
    { resource: 'connections', share: f.connections / b.connections },
    { resource: 'ledger storage', share: f.entriesGBPerYear / b.ledgerGBPerYear },
    { resource: 'WAL', share: f.walMBPerSecondPeak / b.walMBPerSecond },
    { resource: 'commits', share: f.commitsPeakPerSecond / b.commits },
  ].sort((x, y) => y.share - x.share);
}

/** The model's table for SIZES from the measured costs, as bench/capacity.ts prints it. */
export function printModel(costs: Map<string, KindCost>, entryBytes: number): void {
  process.stdout.write(
    `\nmodel: active share ${MODEL.activeShare}, peak hour ${MODEL.peakHourFactor}× the average hour, cores planned at ${MODEL.targetUtilisation * 100} %\n`,
  );
  process.stdout.write(
    `mix a day per active user: ${DAILY_MIX.map((m) => `${m.kind} ${m.perActiveUser}${m.route === 'replica' ? ' (replica)' : ''}`).join(', ')}\n`,
  );
  const rows: SizeFigures[] = SIZES.map((users) => figuresFor(users, costs, entryBytes));
  for (const f of rows) {
    process.stdout.write(
      `${f.users.toLocaleString('en')} users: ${f.peakPerSecond.toFixed(0)} req/s at peak (${f.writesPeakPerSecond.toFixed(0)} writes)` +
        `; server ${f.serverCores.toFixed(2)} cores; primary ${f.primaryCores.toFixed(2)} cores (${f.primaryCoresNoReplicas.toFixed(2)} without replicas), replicas ${f.replicaCores.toFixed(2)}` +
        `; WAL ${f.walMBPerSecondPeak.toFixed(2)} MB/s at peak, ${f.walGBPerDay.toFixed(1)} GB a day; ${f.commitsPeakPerSecond.toFixed(0)} write commits/s` +
        `; ${f.connections} connections; entries ${(f.entriesPerYear / 1e6).toFixed(0)} M a year, ${f.entriesGBPerYear.toFixed(0)} GB` +
        `\n\tshare of one primary's budget (${budgetText()}): ${limits(f)
          .map((l) => `${l.resource} ${l.share.toFixed(2)}`)
          .join(', ')}; runs out first: ${limits(f)[0]?.resource}\n`,
    );
  }
  const one = figuresFor(1_000_000, costs, entryBytes);
  process.stdout.write(
    `per million users: server ${one.serverCores.toFixed(2)} cores, primary ${one.primaryCores.toFixed(2)} cores, replicas ${one.replicaCores.toFixed(3)} cores; ` +
      `one server core holds ${(1 / one.serverCores).toFixed(2)} M users, one ${PRIMARY_BUDGET.cores}-core primary ${(PRIMARY_BUDGET.cores / one.primaryCores).toFixed(1)} M users on CPU, ` +
      `one replica core takes the replica reads of ${(1 / one.replicaCores).toFixed(0)} M users\n`,
  );
  for (const m of DAILY_MIX) if (!costs.has(m.kind)) throw new Error(`${m.kind} not measured`);
  for (const k of costs.keys()) if (isWrite(k) && !DAILY_MIX.some((m) => m.kind === k)) throw new Error(k);
}
