import * as payouts from './features/payouts';
import * as push from './features/push';
import { createJobRunner, type PeriodicTask } from './platform/jobs';
import { pruneOldRows } from './platform/prune';
import type { FeatureDeps } from './platform/routes';

/** Background work reads and writes the primary only: none of it is a read that may be stale. */
export interface WorkerDeps extends Omit<FeatureDeps, 'replica'> {
  /** A real payout gateway; without it the "masterpay" sandbox pays. */
  payoutGateway?: payouts.PayoutGateway;
  /** Our payout callback's absolute URL. */
  notifyUrl: () => string | null;
  /** Where pushes go; Web Push (VAPID) to each subscription's push service when absent. */
  pushSender?: push.PushSender;
  /** More periodic tasks for the runner (the login-attempt sweep). */
  periodic?: PeriodicTask[];
  /** Counts a payout mismatch this process opened (/metrics). */
  onPayoutMismatch?: (gateway: string) => void;
}

/**
 * The background work of one process: the payouts and push services and the job runner over the
 * shared `jobs` table that runs their jobs (JOB_WORKERS loops), its reconciliation (at start, then every min(60 s,
 * PAYOUT_RECONCILE_AFTER_SECONDS)) and hourly pruning of finished jobs and old idempotency keys. `app.ts` starts the runner while the server listens; a test that
 * only injects requests builds its own with this and drives it (`runDue`, `reconcile`).
 */
export async function createWorker(deps: WorkerDeps) {
  const { config } = deps;
  const leaseMs = config.JOB_LEASE_SECONDS * 1000;
  const built = await payouts.createPayouts({
    ...deps,
    gateway: deps.payoutGateway,
    onMismatch: deps.onPayoutMismatch,
    leaseMs,
    wakeJobs: () => jobs.wake(),
  });
  const pushes = await push.createPush({ ...deps, sender: deps.pushSender });
  const jobs = createJobRunner({
    db: deps.db,
    handlers: { ...built.jobHandlers, ...pushes.jobHandlers },
    now: deps.now,
    log: deps.log,
    leaseMs,
    workers: config.JOB_WORKERS,
    periodic: [
      {
        name: 'payouts.reconcile',
        everyMs: Math.min(60_000, config.PAYOUT_RECONCILE_AFTER_SECONDS * 1000),
        run: async () => {
          await built.payouts.reconcile();
        },
      },
      {
        // Yesterday's payouts against RazorpayX's record, once a day (a run that finished is not repeated).
        name: 'payouts.reconcile_day',
        everyMs: 3_600_000,
        run: () => built.payouts.reconciliation.daily(),
      },
      {
        name: 'prune',
        everyMs: 3_600_000,
        run: async () => {
          const pruned = await pruneOldRows({
            db: deps.db,
            now: deps.now,
            jobRetentionHours: config.JOB_RETENTION_HOURS,
            idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
          });
          if (pruned.jobs + pruned.keys > 0) deps.log.info({ pruned }, 'pruned finished jobs and old idempotency keys');
        },
      },
      {
        // No payout account says "Verifying" past ACCOUNT_CHECK_DEADLINE_MINUTES without an operator's task.
        name: 'account-checks.overdue',
        everyMs: 60_000,
        run: async () => {
          await built.validations.queueOverdue();
        },
      },
      ...(deps.periodic ?? []),
    ],
  });
  return { payouts: built.payouts, validations: built.validations, push: pushes.push, jobs };
}
