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
}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  run: () => Promise<void>;
}

/** 1 s, 2 s, 4 s, ... up to 5 minutes. */
export const backoffMs = (attempts: number) => Math.min(1000 * 2 ** Math.max(0, attempts - 1), 300_000);

/**
 * `workers` loops per process over the shared jobs table. Several processes may run them against one
 * database: claims never hand a job to two loops while its lease lasts.
 */
export function createJobRunner(options: JobRunnerOptions) {
  const { db, handlers, now, log, leaseMs } = options;
  const idleMs = options.idleMs ?? 1000;
  const workers = Math.max(1, options.workers ?? 1);
  const kinds = Object.keys(handlers);
  const periodic = (options.periodic ?? []).map((task) => ({ ...task, last: Number.NEGATIVE_INFINITY }));
  let running = false;
  let loops: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  let periodicBusy = false;

  /** Claims and runs one due job; false when none was due. */
  async function runOne(): Promise<boolean> {
    const at = now();
    const job = await claimJob(db, kinds, at, new Date(at.getTime() + leaseMs));
    if (!job) return false;
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job);
      await finishJob(db, job, now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = new Date(now().getTime() + backoffMs(job.attempts));
      log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message, retryAt }, 'job failed');
      await retryJob(db, job, retryAt, message);
    }
    return true;
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

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  }

  function wakeAll() {
    for (const done of [...sleepers]) done();
  }

  async function run() {
    while (running) {
      let worked = false;
      try {
        await maybePeriodic();
        worked = await runOne();
      } catch (error) {
        log.error({ err: error }, 'job runner error');
      }
      if (worked || !running) continue;
      let wait = idleMs;
      try {
        const due = await nextDueAt(db, kinds);
        if (due) wait = Math.min(idleMs, due.getTime() - now().getTime());
      } catch {
        // The database may be closing; sleep the idle time and look again.
      }
      await sleep(wait);
    }
  }

  return {
    start() {
      if (running) return;
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
    /** Runs every due job now, one after another (tests and one-off tools). Answers how many ran. */
    async runDue() {
      let count = 0;
      while (await runOne()) count += 1;
      return count;
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
