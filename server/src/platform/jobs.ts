import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { claimJob, finishJob, type JobRow, nextDueAt, retryJob } from './jobs.queries';

export type JobHandler = (job: JobRow) => Promise<void>;

export interface JobRunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** How long a claimed job stays ours; a job whose instance died runs again after it. */
  leaseMs: number;
  /** Longest sleep when nothing is due (new work in this process wakes the loop at once). */
  idleMs?: number;
  /** Loops claiming jobs side by side in this process (each claim is its own row lock and lease). */
  workers?: number;
  /** Each runs before the first claim and then every `everyMs` (reconciliation, pruning), in one loop. */
  periodic?: PeriodicTask[];
  /** The pause after a failed claim: doubled each failure in a row from `baseMs` up to `capMs`, jittered. */
  failureBackoff?: { baseMs: number; capMs: number };
}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  run: () => Promise<void>;
}

/**
 * The pause of a loop after its `failures`-th failure in a row (the database is away, read-only during a
 * failover, or the claim query fails): `baseMs` doubled each time up to `capMs`, then between half and
 * all of it at random, so the loops of many instances do not hit a recovering database together.
 */
export function failurePauseMs(failures: number, { baseMs, capMs }: { baseMs: number; capMs: number }) {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Shortest sleep when the next due job lies in the past but none could be claimed (another loop holds it). */
const MIN_IDLE_MS = 50;

/** Longest a parked loop sleeps before it looks for itself (the watching loop wakes it sooner). */
const PARKED_MS = 60_000;

/** How often one job may run within one `runDue` call before it counts as spinning. */
export const RUN_DUE_REPEAT_LIMIT = 50;

/** 1 s, 2 s, 4 s, ... up to 5 minutes. */
export const backoffMs = (attempts: number) => Math.min(1000 * 2 ** Math.max(0, attempts - 1), 300_000);

/**
 * `workers` loops per process over the shared jobs table. Several processes may run them against one
 * database: claims never hand a job to two loops while its lease lasts.
 */
export function createJobRunner(options: JobRunnerOptions) {
  const { db, handlers, now, log, leaseMs } = options;
  const idleMs = options.idleMs ?? 1000;
  // 0: this process runs no background work (`start` does nothing); `runDue` still works.
  const workers = Math.max(0, options.workers ?? 1);
  const kinds = Object.keys(handlers);
  const periodic = (options.periodic ?? []).map((task) => ({ ...task, last: Number.NEGATIVE_INFINITY }));
  let running = false;
  let loops: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  /** Loops with nothing to do while another loop watches the table (`watch`). */
  const parked = new Set<() => void>();
  let watching = false;
  let periodicBusy = false;
  const failureBackoff = options.failureBackoff ?? { baseMs: 500, capMs: 10_000 };
  /** The failure streak of this process's loops: logged once when it starts and once when it ends. */
  let streak: { failures: number; since: Date } | undefined;

  function failed(error: unknown) {
    if (streak) {
      streak.failures += 1;
      return;
    }
    streak = { failures: 1, since: now() };
    log.error({ err: error }, 'job runner failing: backing off until the database answers again');
  }

  function recovered() {
    if (!streak) return;
    log.warn({ failures: streak.failures, since: streak.since }, 'job runner recovered');
    streak = undefined;
  }

  /** Claims and runs one due job; the job, or undefined when none was due. */
  async function runOne(): Promise<JobRow | undefined> {
    const at = now();
    const job = await claimJob(db, kinds, at, new Date(at.getTime() + leaseMs));
    if (!job) return undefined;
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job);
      await finishJob(db, job, now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // An error may carry the provider's Retry-After (push services on 429): never retried sooner.
      const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
      const waitMs = Math.max(backoffMs(job.attempts), typeof asked === 'number' ? asked : 0);
      const retryAt = new Date(now().getTime() + waitMs);
      log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message, retryAt }, 'job failed');
      await retryJob(db, job, retryAt, message);
    }
    return job;
  }

  /** The periodic tasks that are due, run by whichever loop gets here first (never two at once). */
  async function maybePeriodic() {
    if (periodicBusy) return;
    periodicBusy = true;
    try {
      for (const task of periodic) {
        if (now().getTime() - task.last < task.everyMs) continue;
        task.last = now().getTime();
        try {
          await task.run();
        } catch (error) {
          log.error({ err: error, task: task.name }, 'periodic task failed');
        }
      }
    } finally {
      periodicBusy = false;
    }
  }

  /**
   * Sleeps `ms` in `set`; answers true when woken early (`wake()`, `stop()`, or for a parked loop, a
   * job found by another loop), false when the time ran out.
   */
  function sleep(ms: number, set: Set<() => void> = sleepers) {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), Math.max(0, ms));
      function done(woken = true) {
        clearTimeout(timer);
        set.delete(done);
        resolve(woken);
      }
      set.add(done);
    });
  }

  function wakeAll() {
    for (const done of [...sleepers, ...parked]) done();
  }

  /** A loop ran a job, so more may be due: the parked loops claim too. */
  function wakeParked() {
    for (const done of [...parked]) done();
  }

  /**
   * Nothing could be claimed: watches the table until a job is due, with one statement (`nextDueAt`) a
   * look instead of a claim's transaction, sleeping until the next due time or `idleMs`, whichever
   * comes first. Returns to claim when a job is due, when woken, or when the look fails (the claim
   * then meets the failure and backs off). `justClaimed`: a claim found nothing a moment ago, so a
   * job due already is held by another loop: look again after MIN_IDLE_MS instead of claiming at once.
   */
  async function watch() {
    let justClaimed = true;
    while (running) {
      let wait = idleMs;
      try {
        const due = await nextDueAt(db, kinds);
        if (due) {
          const until = due.getTime() - now().getTime();
          if (until <= 0 && !justClaimed) return;
          wait = Math.max(MIN_IDLE_MS, Math.min(idleMs, until));
        }
      } catch {
        return;
      }
      justClaimed = false;
      if (await sleep(wait)) return;
      await maybePeriodic();
    }
  }

  async function run() {
    let failures = 0;
    while (running) {
      let worked = false;
      try {
        await maybePeriodic();
        worked = (await runOne()) !== undefined;
        failures = 0;
        recovered();
      } catch (error) {
        // Never straight back: a claim that fails would fail again at once, thousands of times a second.
        failures += 1;
        failed(error);
        if (running) await sleep(failurePauseMs(failures, failureBackoff));
        continue;
      }
      if (!running) break;
      if (worked) {
        wakeParked();
        continue;
      }
      // One loop of the process watches an idle table; the others park until it (or any loop) finds
      // work, or new work is enqueued here: an idle process costs the database one statement a
      // second, not a claim's transaction and a look per loop (docs/decisions/job-runner-idle.md).
      if (watching) {
        await sleep(PARKED_MS, parked);
        continue;
      }
      watching = true;
      try {
        await watch();
      } finally {
        watching = false;
      }
    }
  }

  return {
    start() {
      if (running || workers === 0) return;
      running = true;
      loops = Array.from({ length: workers }, () => run());
    },
    /** Lets the jobs in progress finish, then stops. */
    async stop() {
      running = false;
      wakeAll();
      await Promise.all(loops);
    },
    /** New work was enqueued in this process: look now instead of after the idle sleep. */
    wake() {
      wakeAll();
    },
    /**
     * Runs every due job now, one after another (tests and one-off tools). Answers how many ran. A job
     * claimed `RUN_DUE_REPEAT_LIMIT` times in one call is revived by something while it runs, again and
     * again: that throws, naming the job, instead of spinning until the caller's timeout.
     */
    async runDue() {
      const runs = new Map<number, number>();
      let count = 0;
      for (let job = await runOne(); job; job = await runOne()) {
        count += 1;
        const times = (runs.get(job.id) ?? 0) + 1;
        runs.set(job.id, times);
        if (times >= RUN_DUE_REPEAT_LIMIT) {
          throw new Error(
            `job ${job.id} (${job.kind}, ${job.dedupeKey}) ran ${times} times in one runDue: something revives it while it runs`,
          );
        }
      }
      return count;
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
