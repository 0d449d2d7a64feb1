import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';
import type { Db } from './types';

/**
 * The streaming standbys of DATABASE_REPLICA_URLS and how far each is behind the primary, checked in
 * the background (docs/decisions/read-replicas.md). The router (platform/replica-reads.ts) asks `pick()`
 * for one that is caught up enough; this file knows nothing of users or requests.
 */

/** How often each replica's position is compared with the primary's. */
export const REPLICA_CHECK_EVERY_MS = 1_000;
/** A check that has not answered in this long counts as failed (the replica is skipped). */
export const REPLICA_CHECK_TIMEOUT_MS = 1_000;
/** Primary positions kept to date a replica's replay position: a minute of checks. */
const SAMPLES_KEPT = 60;

export interface ReplicaStatus {
  /** `host:port/database` of the replica, as metrics and logs name it (no password). */
  name: string;
  /** Whether the last check answered, from a server in recovery (a standby). */
  healthy: boolean;
  /** An upper bound of how stale the replica was at the last check (ms); undefined when unknown. */
  lagMs: number | undefined;
  /** When the last check that answered finished (ms since the epoch); 0 before the first. */
  checkedAt: number;
}

export interface Replica {
  name: string;
  db: Db;
}

export interface ReplicaSet {
  /** A replica behind by at most `maxLagMs` at a check recent enough to vouch for it, chosen in turn. */
  pick(): Replica | undefined;
  /** The replica answered a read with a broken connection: skipped until a check finds it well again. */
  markDown(name: string): void;
  status(): ReplicaStatus[];
  /** One round of checks now (the timer runs them every REPLICA_CHECK_EVERY_MS). */
  check(): Promise<void>;
  close(): Promise<void>;
  /**
   * The longest a read on a picked replica can be behind (ms): `maxLagMs` at the check, plus the time
   * until the next check may vouch for it. A write older than this is seen on any replica `pick()` gives.
   */
  staleBoundMs: number;
}

export interface ReplicaOptions {
  urls: string[];
  maxLagMs: number;
  /** Where the primary's WAL position is read (the primary's own pool). */
  primary: pg.Pool;
  poolSize: number;
  connectTimeoutMs: number;
  now?: () => number;
  onConnectionError?: (error: Error) => void;
}

/** `X/Y`, a pg_lsn as text, as one number of bytes (exact to 2^53, some 9 PB of WAL). */
export function lsnBytes(lsn: string): number {
  const [hi = '0', lo = '0'] = lsn.split('/');
  return Number.parseInt(hi, 16) * 2 ** 32 + Number.parseInt(lo, 16);
}

export function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

/**
 * An upper bound of a replica's staleness from what a check saw. Caught up with the primary's position
 * read just before: 0. Otherwise two bounds, the smaller kept: the replica holds everything the primary
 * held at the last sample not past its replay position (`now - that sample's time`), and everything
 * committed up to its last replayed transaction (`now - pg_last_xact_replay_timestamp()`). The second
 * alone overstates an idle primary (the last commit may be old while only a checkpoint is unreplayed);
 * the first alone is only as fine as the check interval.
 */
export function lagBound(input: {
  now: number;
  replayLsn: number;
  primaryLsn: number;
  samples: readonly { at: number; lsn: number }[];
  /** `now() - pg_last_xact_replay_timestamp()` on the replica, ms; null before its first replayed commit. */
  sinceReplayMs: number | null;
}): number | undefined {
  if (input.replayLsn >= input.primaryLsn) return 0;
  let caughtUpAt: number | undefined;
  for (const sample of input.samples) if (sample.lsn <= input.replayLsn) caughtUpAt = sample.at;
  const bounds = [
    ...(caughtUpAt === undefined ? [] : [input.now - caughtUpAt]),
    ...(input.sinceReplayMs === null ? [] : [Math.max(0, input.sinceReplayMs)]),
  ];
  return bounds.length === 0 ? undefined : Math.min(...bounds);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function openReplicas(options: ReplicaOptions): ReplicaSet {
  const now = options.now ?? Date.now;
  const lost =
    options.onConnectionError ?? ((e: Error) => process.stderr.write(`replica connection lost: ${e.message}\n`));
  const members = options.urls.map((url) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize,
      connectionTimeoutMillis: options.connectTimeoutMs,
      keepAlive: true,
    });
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    const status: ReplicaStatus = { name: replicaName(url), healthy: false, lagMs: undefined, checkedAt: 0 };
    return { pool, db: drizzle({ client: pool, schema }) as unknown as Db, status };
  });
  const samples: { at: number; lsn: number }[] = [];
  let turn = 0;
  let closed = false;
  let running: Promise<void> | undefined;

  async function checkOne(member: (typeof members)[number], primaryLsn: number) {
    try {
      const { rows } = await withTimeout(
        member.pool.query<{ standby: boolean; replay: string | null; since_ms: string | null }>(
          `select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replay,
             (extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::bigint::text as since_ms`,
        ),
        REPLICA_CHECK_TIMEOUT_MS,
      );
      const row = rows[0];
      // A server out of recovery is a promoted standby (or a misconfigured primary): reading it could
      // show a history that is no longer the primary's.
      if (!row?.standby || row.replay === null) throw new Error('not a standby in recovery');
      member.status.lagMs = lagBound({
        now: now(),
        replayLsn: lsnBytes(row.replay),
        primaryLsn,
        samples,
        sinceReplayMs: row.since_ms === null ? null : Number(row.since_ms),
      });
      member.status.healthy = true;
      member.status.checkedAt = now();
    } catch {
      member.status.healthy = false;
      member.status.lagMs = undefined;
    }
  }

  async function checkAll() {
    let primaryLsn: number;
    try {
      const { rows } = await withTimeout(
        options.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn'),
        REPLICA_CHECK_TIMEOUT_MS,
      );
      primaryLsn = lsnBytes(rows[0]?.lsn ?? '0/0');
    } catch {
      // Without the primary's position no replica can be vouched for; reads fall back (and likely fail
      // with the primary anyway, as they would without replicas).
      for (const m of members) m.status.healthy = false;
      return;
    }
    samples.push({ at: now(), lsn: primaryLsn });
    if (samples.length > SAMPLES_KEPT) samples.shift();
    await Promise.all(members.map((m) => checkOne(m, primaryLsn)));
  }

  const check = () => {
    running ??= checkAll().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void check(), REPLICA_CHECK_EVERY_MS);
  timer.unref();
  void check();

  const staleBoundMs = options.maxLagMs + REPLICA_CHECK_EVERY_MS + REPLICA_CHECK_TIMEOUT_MS;
  const usable = (s: ReplicaStatus, at: number) =>
    s.healthy &&
    s.lagMs !== undefined &&
    s.lagMs <= options.maxLagMs &&
    at - s.checkedAt <= REPLICA_CHECK_EVERY_MS + REPLICA_CHECK_TIMEOUT_MS;

  return {
    staleBoundMs,
    pick() {
      if (closed) return undefined;
      const at = now();
      for (let i = 0; i < members.length; i++) {
        const member = members[(turn + i) % members.length];
        if (member && usable(member.status, at)) {
          turn = (turn + i + 1) % members.length;
          return { name: member.status.name, db: member.db };
        }
      }
      return undefined;
    },
    markDown(name) {
      for (const m of members) if (m.status.name === name) m.status.healthy = false;
    },
    status: () => members.map((m) => ({ ...m.status })),
    check,
    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      await Promise.all(members.map((m) => m.pool.end().catch(() => undefined)));
    },
  };
}
