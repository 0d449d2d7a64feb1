import type { Redis } from 'ioredis';
import { isBrokenConnection } from '../db/client';
import type { ReplicaSet } from '../db/replicas';
import { sqlStateOf } from '../db/transaction';
import type { Db } from '../db/types';

/**
 * Reads that may be a moment stale, and where they go (docs/decisions/read-replicas.md). A query site
 * chooses explicitly: `deps.db` is the primary, `deps.replica.read(reader, (db) => ...)` lets the read
 * run on a streaming standby that is caught up enough. Writes, transactions and a user's reads of their
 * own money never come here.
 */
export interface ReplicaReads {
  /**
   * Runs `read` on a replica behind by at most DATABASE_REPLICA_MAX_LAG_MS, else on the primary. `reader`
   * (the user or operator asking) reads the primary for a while after they wrote, so nobody misses their
   * own change. A replica that fails the read with a broken connection is skipped and the read runs
   * again on the primary: the caller never sees a replica's failure. `read` must not write.
   */
  read<T>(reader: number | undefined, read: (db: Db) => Promise<T>): Promise<T>;
  /** `user` just wrote (a non-GET request of theirs ended): their reads stay on the primary for a while. */
  wrote(user: number): Promise<void>;
}

/** Where a read went and why, for the `kamai_db_reads_total` counter. */
export type ReadRoute =
  | { target: 'replica'; replica: string }
  | { target: 'primary'; reason: 'no_replica' | 'recent_write' | 'replica_failed' };

/** Who wrote in the last few seconds: in this process, or in Redis so every instance knows. */
export interface RecentWrites {
  mark(user: number): Promise<void>;
  /** true when `user` wrote within the window; also when it cannot be known (Redis down): the primary is always right. */
  wroteRecently(user: number): Promise<boolean>;
}

/** No replicas: every read runs on the primary, with nothing to record. */
export function primaryReads(db: Db): ReplicaReads {
  return { read: (_reader, read) => read(db), wrote: async () => undefined };
}

/** The recent writers of this process (one instance; with several, a user's next read may reach another). */
export function memoryRecentWrites(windowMs: number, now: () => number = Date.now): RecentWrites {
  const until = new Map<number, number>();
  return {
    async mark(user) {
      const at = now();
      // Bounded by the writers of one window: expired entries go whenever the map grows past a few thousand.
      if (until.size > 10_000) for (const [id, end] of until) if (end <= at) until.delete(id);
      until.set(user, at + windowMs);
    },
    async wroteRecently(user) {
      const end = until.get(user);
      return end !== undefined && end > now();
    },
  };
}

/** The recent writers of every instance: one key per writer that Redis expires after the window. */
export function redisRecentWrites(redis: Redis, prefix: string, windowMs: number): RecentWrites {
  const key = (user: number) => `${prefix}wrote:${user}`;
  return {
    async mark(user) {
      // A lost mark only sends a few reads to a replica that is at most staleBoundMs behind.
      await redis.set(key(user), '1', 'PX', windowMs).catch(() => undefined);
    },
    async wroteRecently(user) {
      return redis.exists(key(user)).then(
        (n) => n > 0,
        () => true,
      );
    },
  };
}

/**
 * A replica's failure worth retrying on the primary: the connection broke (the standby stopped or
 * restarted), or recovery cancelled the query (a conflict with replayed WAL reports 40001 on a standby).
 */
function replicaFailed(error: unknown): boolean {
  return isBrokenConnection(error) || sqlStateOf(error) === '40001';
}

export function replicaReads(options: {
  primary: Db;
  replicas: ReplicaSet;
  recent: RecentWrites;
  onRead?: (route: ReadRoute) => void;
  onReplicaError?: (replica: string, error: unknown) => void;
}): ReplicaReads {
  const { primary, replicas, recent } = options;
  const counted = (route: ReadRoute) => options.onRead?.(route);
  return {
    async read(reader, read) {
      if (reader !== undefined && (await recent.wroteRecently(reader))) {
        counted({ target: 'primary', reason: 'recent_write' });
        return read(primary);
      }
      const replica = replicas.pick();
      if (!replica) {
        counted({ target: 'primary', reason: 'no_replica' });
        return read(primary);
      }
      try {
        const answer = await read(replica.db);
        counted({ target: 'replica', replica: replica.name });
        return answer;
      } catch (error) {
        if (!replicaFailed(error)) throw error;
        replicas.markDown(replica.name);
        options.onReplicaError?.(replica.name, error);
        counted({ target: 'primary', reason: 'replica_failed' });
        return read(primary);
      }
    },
    wrote: (user) => recent.mark(user),
  };
}
