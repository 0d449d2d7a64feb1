import { and, asc, eq, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { builtOnce, rowPlaceholders, type StatementPart } from '../db/prepared';
import { jobs } from '../db/schema';

export type JobRow = typeof jobs.$inferSelect;

export interface NewJob {
  kind: string;
  /** One row per unit of work (`payout:dispatch:17`): enqueueing it again is a no-op. */
  dedupeKey: string;
  payload?: Record<string, unknown>;
  runAt: Date;
}

/** The insert of `enqueueJob`, unrun: for a data-modifying CTE in the statement of the change it belongs to. */
export function jobInsert(db: Executor, job: NewJob) {
  return db
    .insert(jobs)
    .values({ payload: {}, ...job })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
}

/**
 * `jobInsert` as the CTE `name` of a statement built once per shape (`builtPerShape`): every value
 * of the row is a placeholder.
 */
export function jobPart(name: string, job: NewJob): StatementPart {
  const { row, params, shape } = rowPlaceholders(jobs, name, { payload: {}, ...job });
  return {
    shape,
    params,
    ctes: (db) => [
      db
        .$with(name)
        .as(db.insert(jobs).values(row()).onConflictDoNothing({ target: jobs.dedupeKey }).returning({ id: jobs.id })),
    ],
  };
}

/** Adds a job in the caller's transaction, unless one with its dedupe key exists. */
export async function enqueueJob(db: Executor, job: NewJob) {
  await jobInsert(db, job);
}

/**
 * Adds the job, or makes the one with its dedupe key due by `runAt`: a finished one runs again, a
 * waiting one (say, in a long retry backoff) is brought forward. A running one keeps its lease and
 * runs once more after it: its `run_at` moves past the value it was claimed with, which `finishJob`
 * reads as "revived while running" (the run may have read the state from before the caller's change,
 * say a payout that found its account check still under way while the check was settling).
 */
export async function enqueueOrRevive(db: Executor, job: NewJob) {
  const finished = sql`${jobs.doneAt} is not null`;
  const leased = sql`${jobs.lockedUntil} is not null`;
  await db
    .insert(jobs)
    .values({ payload: {}, ...job })
    .onConflictDoUpdate({
      target: jobs.dedupeKey,
      set: {
        runAt: sql`case when ${finished} then excluded.run_at
          when ${leased} then greatest(excluded.run_at, ${jobs.runAt} + interval '1 millisecond')
          else least(${jobs.runAt}, excluded.run_at) end`,
        attempts: sql`case when ${finished} then 0 else ${jobs.attempts} end`,
        lockedUntil: sql`case when ${finished} then null else ${jobs.lockedUntil} end`,
        doneAt: null,
      },
    });
}

/**
 * Claims the oldest due job of the given kinds: FOR UPDATE SKIP LOCKED picks a row no other instance is
 * claiming, and the lease (`locked_until`) keeps it ours while it runs outside any transaction.
 */
export async function claimJob(db: Db, kinds: string[], now: Date, leaseUntil: Date): Promise<JobRow | undefined> {
  const at = now.toISOString();
  const kindParams = Object.fromEntries(kinds.map((kind, i) => [`kind${i}`, kind]));
  return db.transaction(async (tx) => {
    const [due] = await dueJob(kinds.length)(tx).execute({ now: at, ...kindParams });
    if (!due) return undefined;
    const [claimed] = await claimQuery(tx).execute({ id: due.id, lease: leaseUntil.toISOString() });
    return claimed;
  });
}

// The job runner's statements, built by drizzle once per process and named (`builtOnce`; the due
// read once per number of kinds): every job of every kind runs them (benchmark 3's approvals queue
// one payout each).
const dueJobs = new Map<number, ReturnType<typeof dueJobQuery>>();
const dueJob = (kinds: number) => {
  let query = dueJobs.get(kinds);
  if (!query) {
    query = dueJobQuery(kinds);
    dueJobs.set(kinds, query);
  }
  return query;
};
const dueJobQuery = (kinds: number) =>
  builtOnce(`kamai_job_due_${kinds}`, (db: Executor) => {
    const now = sql.placeholder('now');
    return db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.doneAt),
          lte(jobs.runAt, now),
          or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now)),
          inArray(
            jobs.kind,
            Array.from({ length: kinds }, (_, i) => sql.placeholder(`kind${i}`)),
          ),
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(1)
      .for('update', { skipLocked: true });
  });
const claimQuery = builtOnce('kamai_job_claim', (db: Executor) =>
  db
    .update(jobs)
    .set({ lockedUntil: sql`${sql.placeholder('lease')}`, attempts: sql`${jobs.attempts} + 1` })
    .where(eq(jobs.id, sql.placeholder('id')))
    .returning(),
);

/**
 * Marks a claimed job done, unless its lease ran out and another claim has taken it since. One revived
 * while it ran (`enqueueOrRevive` moved its `run_at` at least 1 ms past the claimed value; the claimed
 * value came back through a JavaScript Date, whole milliseconds) is released instead, to run again.
 */
export async function finishJob(db: Executor, job: JobRow, now: Date) {
  await finishQuery(db).execute({
    claimedRunAt: job.runAt.toISOString(),
    now: now.toISOString(),
    id: job.id,
    attempts: job.attempts,
  });
}

// Built once per process and named (`builtOnce`): the end of every job's run.
const finishQuery = builtOnce('kamai_job_finish', (db: Executor) => {
  const claimedRunAt = sql`${sql.placeholder('claimedRunAt')}::timestamptz + interval '1 millisecond'`;
  return db
    .update(jobs)
    .set({
      doneAt: sql`case when ${jobs.runAt} < ${claimedRunAt} then ${sql.placeholder('now')}::timestamptz else null end`,
      lockedUntil: null,
      lastError: null,
    })
    .where(and(eq(jobs.id, sql.placeholder('id')), eq(jobs.attempts, sql.placeholder('attempts'))));
});

export async function retryJob(db: Executor, job: JobRow, runAt: Date, error: string) {
  await db
    .update(jobs)
    .set({ runAt, lockedUntil: null, lastError: error.slice(0, 1000) })
    .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts)));
}

/** When the next unfinished job of these kinds becomes claimable, or undefined when there is none. */
export async function nextDueAt(db: Executor, kinds: string[]): Promise<Date | undefined> {
  const [row] = await db
    .select({
      at: sql<string | Date | null>`min(greatest(${jobs.runAt}, coalesce(${jobs.lockedUntil}, ${jobs.runAt})))`,
    })
    .from(jobs)
    .where(and(isNull(jobs.doneAt), inArray(jobs.kind, kinds)));
  return row?.at ? new Date(row.at) : undefined;
}

/**
 * Deletes jobs finished before `before`, at most `limit` a call (a short statement; the caller loops).
 * Every handler checks the state it acts on, so a pruned job's dedupe key being free again is safe:
 * enqueueOrRevive already runs finished jobs again by design.
 */
export async function pruneFinishedJobs(db: Executor, before: Date, limit = 5000): Promise<number> {
  const oldest = db.select({ id: jobs.id }).from(jobs).where(lt(jobs.doneAt, before)).limit(limit);
  const deleted = await db.delete(jobs).where(inArray(jobs.id, oldest)).returning({ id: jobs.id });
  return deleted.length;
}

/** The unfinished jobs with this dedupe key, unrun: for `notExists(...)` in a query of the work's subject. */
export function unfinishedJobs(db: Executor, dedupeKey: SQL) {
  return db
    .select({ one: sql`1` })
    .from(jobs)
    .where(and(eq(jobs.dedupeKey, dedupeKey), isNull(jobs.doneAt)));
}
