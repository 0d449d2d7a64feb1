import {
  asPayoutStatus,
  businessDayOf,
  endOfBusinessDay,
  type PayoutMismatchKind,
  type PayoutReconciliationRun,
  type PayoutReconciliationStatus,
  type RazorpayxPayoutStatus,
  startOfBusinessDay,
  type WithdrawalState,
} from '@kamai/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError } from '../../platform/errors';
import { enqueueOrRevive, type JobRow } from '../../platform/jobs.queries';
import type { Actor } from '../../platform/routes';
import {
  lockWithdrawal,
  sentBetween,
  setGatewayFees,
  setGatewayPayoutId,
  type WithdrawalRow,
  withdrawalsByReferenceOrPayout,
} from '../withdrawals';
import type { Applied, Report } from './payouts.gateway';
import * as q from './payouts.queries';
import { outcomeOf, type RazorpayxGatewayClient, type RazorpayxListedPayout } from './payouts.razorpayx';
import { isOurReference } from './payouts.references';

export const RECONCILE_JOB = 'payout.reconcile_day';

/** RazorpayX's page size limit for `count` (https://razorpay.com/docs/api/x/payouts/fetch-all). */
export const LIST_PAGE_SIZE = 100;
/** Payouts created this long before or after the day are fetched too, so a payout made across midnight is not "missing". */
const EDGE_SECONDS = 3600;
/** 429s honoured in a row on one page before the run gives up (each waits twice as long, jittered). */
const MAX_RATE_LIMITED = 6;

export interface ReconciliationDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** RazorpayX's list call; absent: RazorpayX is not configured and there is no record to reconcile with. */
  list?: RazorpayxGatewayClient['listPayouts'];
  referencePrefix: string;
  /** Most RazorpayX calls a second (RAZORPAYX_REQUESTS_PER_SECOND). */
  requestsPerSecond: number;
  /** One call's deadline. */
  timeoutMs: number;
  applyReport: (tx: Tx, current: WithdrawalRow, report: Report) => Promise<Applied>;
  onMismatch?: () => void;
  wakeJobs: () => void;
  sleep?: (ms: number) => Promise<void>;
}

/** Whether Kamai's state says what the bank's status says (paid, returned, or still on its way). */
function agrees(state: WithdrawalState, bank: RazorpayxPayoutStatus | null) {
  switch (bank) {
    case 'processed':
      return state === 'paid';
    case 'reversed':
      return state === 'reversed' || state === 'failed';
    case 'failed':
    case 'rejected':
    case 'cancelled':
      return state === 'failed';
    default:
      return state === 'approved' || state === 'processing';
  }
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The daily reconciliation against RazorpayX's own record (docs/decisions/razorpayx-payouts.md): the
 * payouts created on an India calendar day, fetched page by page within RazorpayX's rate, matched to
 * withdrawals by the reference they were sent with; every difference opens a payout mismatch.
 */
export function createReconciliation(deps: ReconciliationDeps) {
  const { db, now, log } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const gap = Math.ceil(1000 / deps.requestsPerSecond);

  /**
   * Every payout created in [from, to), newest first, `count` 100 and `skip` moving on
   * (https://razorpay.com/docs/api/pagination): calls at most `requestsPerSecond` a second (RazorpayX:
   * "within a range of 5-10 transactions per sec", https://razorpay.com/docs/razorpayx/best-practices/),
   * and a 429 waits (1 s, 2 s, 4 s, ... jittered, as the pagination page advises) and asks again.
   */
  async function fetchAll(list: NonNullable<ReconciliationDeps['list']>, from: number, to: number, counts: Counts) {
    const items: RazorpayxListedPayout[] = [];
    let last = 0;
    for (let skip = 0; ; ) {
      const wait = last + gap - Date.now();
      if (wait > 0) await sleep(wait);
      last = Date.now();
      const page = await list({ from, to, count: LIST_PAGE_SIZE, skip }, AbortSignal.timeout(deps.timeoutMs));
      if (page.status === 429) {
        counts.rateLimited += 1;
        const tries = (counts.retries[skip] ?? 0) + 1;
        counts.retries[skip] = tries;
        if (tries > MAX_RATE_LIMITED) throw new Error(`RazorpayX answered 429 ${tries} times in a row`);
        const backoff = 1000 * 2 ** (tries - 1);
        await sleep(backoff / 2 + Math.random() * (backoff / 2));
        continue;
      }
      if (page.status !== 200 || !page.items) {
        throw new Error(`RazorpayX list answered ${page.status}: ${page.error?.description ?? ''}`);
      }
      counts.pages += 1;
      items.push(...page.items);
      if (page.items.length < LIST_PAGE_SIZE) return items;
      skip += LIST_PAGE_SIZE;
    }
  }

  interface Counts {
    fetched: number;
    pages: number;
    ours: number;
    others: number;
    matched: number;
    settled: number;
    rateLimited: number;
    mismatches: number;
    retries: Record<number, number>;
    kinds: Partial<Record<PayoutMismatchKind, number>>;
  }

  async function open(
    tx: Db | Tx,
    runId: number,
    kind: PayoutMismatchKind,
    dedupeKey: string,
    values: {
      withdrawal?: WithdrawalRow;
      payout?: RazorpayxListedPayout;
      callbackStatus: string;
      details: Record<string, unknown>;
    },
    counts: Counts,
  ) {
    const { withdrawal, payout } = values;
    const id = await q.insertMismatch(tx, {
      kind,
      withdrawalId: withdrawal?.id ?? null,
      gateway: 'razorpayx',
      gatewayPayoutId: payout?.id ?? withdrawal?.gatewayPayoutId ?? null,
      dedupeKey,
      state: withdrawal?.state ?? null,
      callbackStatus: values.callbackStatus,
      callbackAmount: payout ? BigInt(payout.amount) : null,
      callbackReference: payout?.utr ?? null,
      settledCallbackId: null,
      callbackId: null,
      details: values.details,
      reconciliationId: runId,
      createdAt: now(),
    });
    if (id !== undefined) {
      counts.mismatches += 1;
      counts.kinds[kind] = (counts.kinds[kind] ?? 0) + 1;
      deps.onMismatch?.();
      log.warn(
        { mismatchId: id, kind, withdrawalId: withdrawal?.id, payoutId: payout?.id },
        'payout reconciliation: a difference',
      );
    }
  }

  const held = (w: WithdrawalRow) => ({
    state: w.state,
    amount: String(w.amount - w.fee),
    reference: w.payoutReference,
    payoutId: w.gatewayPayoutId,
    utr: w.reference,
    gatewayStatus: w.gatewayStatus,
    fees: w.gatewayFees === null ? null : String(w.gatewayFees),
    tax: w.gatewayTax === null ? null : String(w.gatewayTax),
  });
  const record = (p: RazorpayxListedPayout) => ({
    status: p.status,
    amount: String(p.amount),
    currency: p.currency ?? 'INR',
    reference: p.reference_id ?? null,
    payoutId: p.id,
    utr: p.utr ?? null,
    fees: p.fees ?? null,
    tax: p.tax ?? null,
    createdAt: new Date(p.created_at * 1000).toISOString(),
  });

  /** One payout of RazorpayX's record against its withdrawal, in the withdrawal's lock. */
  async function matchOne(runId: number, id: number, payout: RazorpayxListedPayout, counts: Counts) {
    await db.transaction(async (tx) => {
      const w = await lockWithdrawal(tx, id);
      if (!w) return;
      const details = () => ({ kamai: held(w), razorpayx: record(payout) });
      if (w.gatewayPayoutId && w.gatewayPayoutId !== payout.id) {
        // A second payout under one withdrawal's reference: money may have left twice.
        return open(
          tx,
          runId,
          'unknown_payout',
          `recon:second:${payout.id}`,
          {
            withdrawal: w,
            payout,
            callbackStatus: payout.status,
            details: details(),
          },
          counts,
        );
      }
      if (!w.gatewayPayoutId) await setGatewayPayoutId(tx, w.id, payout.id);
      if (BigInt(payout.amount) !== w.amount - w.fee || (payout.currency ?? 'INR') !== 'INR') {
        return open(
          tx,
          runId,
          'amount',
          `recon:amount:${payout.id}:${payout.amount}:${payout.currency ?? ''}`,
          {
            withdrawal: w,
            payout,
            callbackStatus: payout.status,
            details: details(),
          },
          counts,
        );
      }
      if (payout.fees != null && payout.tax != null) {
        if (w.gatewayFees === null) await setGatewayFees(tx, w.id, BigInt(payout.fees), BigInt(payout.tax));
        else if (w.gatewayFees !== BigInt(payout.fees) || w.gatewayTax !== BigInt(payout.tax)) {
          await open(
            tx,
            runId,
            'fees',
            `recon:fees:${payout.id}:${payout.fees}:${payout.tax}`,
            {
              withdrawal: w,
              payout,
              callbackStatus: payout.status,
              details: details(),
            },
            counts,
          );
        }
      }
      const lateUtr = w.state === 'paid' && !w.reference && Boolean(payout.utr);
      const outcome = outcomeOf(payout);
      let result: Applied | undefined;
      if (
        outcome.status !== 'processing' &&
        w.state !== 'pending' &&
        w.state !== 'rejected' &&
        w.state !== 'cancelled'
      ) {
        const currency = payout.currency ?? null;
        result = await deps.applyReport(tx, w, {
          gateway: 'razorpayx',
          eventKey: `razorpayx:${payout.id}:${payout.status}:${payout.amount}:${currency ?? ''}:${payout.utr ?? ''}`,
          gatewayStatus: payout.status,
          outcome,
          amount: BigInt(payout.amount),
          currency,
          payload: { source: 'reconciliation', payout },
          kind: 'status',
        });
        if (result === 'mismatch') {
          counts.mismatches += 1;
          counts.kinds.status = (counts.kinds.status ?? 0) + 1;
          return;
        }
        if (result === 'applied' && !lateUtr) counts.settled += 1;
      }
      const after = (await lockWithdrawal(tx, w.id)) ?? w;
      if (lateUtr && after.reference === payout.utr) {
        // The UTR reached Kamai only now: its `payout.updated` never came (or was refused).
        await open(
          tx,
          runId,
          'late_utr',
          `recon:late_utr:${payout.id}:${payout.utr}`,
          {
            withdrawal: after,
            payout,
            callbackStatus: payout.status,
            details: details(),
          },
          counts,
        );
      }
      if (!agrees(after.state, asPayoutStatus(payout.status))) {
        await open(
          tx,
          runId,
          'status',
          `recon:status:${payout.id}:${payout.status}:${after.state}`,
          {
            withdrawal: after,
            payout,
            callbackStatus: payout.status,
            details: { kamai: held(after), razorpayx: record(payout) },
          },
          counts,
        );
      }
    });
  }

  /** Reconciles one India day; answers the run. A failure is recorded on the run, then thrown (the job retries). */
  async function run(day: string, startedBy: number | null): Promise<PayoutReconciliationRun> {
    const runId = await q.startReconciliation(db, { gateway: 'razorpayx', day, startedBy, startedAt: now() });
    const counts: Counts = {
      fetched: 0,
      pages: 0,
      ours: 0,
      others: 0,
      matched: 0,
      settled: 0,
      rateLimited: 0,
      mismatches: 0,
      retries: {},
      kinds: {},
    };
    const flat = () => {
      const { retries: _retries, kinds, ...rest } = counts;
      return { ...rest, ...kinds } as Record<string, number>;
    };
    try {
      if (!deps.list) throw new AppError('payout_reconciliation_unavailable');
      const start = startOfBusinessDay(day);
      const end = endOfBusinessDay(day);
      const fromSec = Math.floor(start.getTime() / 1000);
      const toSec = Math.floor(end.getTime() / 1000);
      const payouts = await fetchAll(deps.list, fromSec - EDGE_SECONDS, toSec + EDGE_SECONDS, counts);
      counts.fetched = payouts.length;
      const inDay = (p: RazorpayxListedPayout) => p.created_at >= fromSec && p.created_at < toSec;
      const seen = new Set<number>();
      for (let i = 0; i < payouts.length; i += 500) {
        const chunk = payouts.slice(i, i + 500);
        const known = await withdrawalsByReferenceOrPayout(
          db,
          chunk.map((p) => p.reference_id).filter((r): r is string => Boolean(r)),
          chunk.map((p) => p.id),
        );
        for (const payout of chunk) {
          const id =
            known.byPayout.get(payout.id) ??
            (payout.reference_id ? known.byReference.get(payout.reference_id) : undefined);
          if (id === undefined) {
            if (inDay(payout) && isOurReference(deps.referencePrefix, payout.reference_id)) {
              counts.ours += 1;
              // Made under this installation's reference, yet no withdrawal has it (e.g. lost to a restore).
              await open(
                db,
                runId,
                'unknown_payout',
                `recon:unknown:${payout.id}`,
                {
                  payout,
                  callbackStatus: payout.status,
                  details: { kamai: null, razorpayx: record(payout) },
                },
                counts,
              );
            } else if (inDay(payout)) counts.others += 1;
            continue;
          }
          counts.ours += 1;
          counts.matched += 1;
          seen.add(id);
          await matchOne(runId, id, payout, counts);
        }
      }
      // Withdrawals sent that day that RazorpayX's record does not have. One refused at creation (400,
      // no payout id, failed) never made a payout and is not expected there.
      for (const w of await sentBetween(db, start, end)) {
        if (seen.has(w.id)) continue;
        if (w.state === 'failed' && !w.gatewayPayoutId) continue;
        if (w.state === 'approved' && !w.gatewayPayoutId) continue;
        await open(
          db,
          runId,
          'missing_payout',
          `recon:missing:${w.id}:${w.payoutReference}`,
          {
            withdrawal: w,
            callbackStatus: 'missing',
            details: { kamai: held(w), razorpayx: null },
          },
          counts,
        );
      }
      await q.finishReconciliation(db, runId, { status: 'done', finishedAt: now(), counts: flat() });
      log.info({ day, runId, counts: flat() }, 'payout reconciliation done');
    } catch (error) {
      const message = error instanceof AppError ? error.key : (error as Error).message;
      await q.finishReconciliation(db, runId, {
        status: 'failed',
        finishedAt: now(),
        counts: flat(),
        error: message.slice(0, 500),
      });
      log.error({ err: error, day, runId }, 'payout reconciliation failed');
      throw error;
    }
    const last = await lastRun();
    if (!last) throw new Error(`reconciliation ${runId} vanished`);
    return last;
  }

  async function lastRun(): Promise<PayoutReconciliationRun | null> {
    const row = await q.lastReconciliation(db);
    if (!row) return null;
    return {
      id: row.id,
      gateway: row.gateway,
      day: row.day,
      startedBy: row.startedBy,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      status: row.status as PayoutReconciliationRun['status'],
      counts: row.counts,
      error: row.error,
    };
  }

  const jobOf = (day: string, startedBy: number | null) => ({
    kind: RECONCILE_JOB,
    dedupeKey: `payout:reconcile:${day}:${startedBy ?? 'daily'}`,
    payload: { day, startedBy },
    runAt: now(),
  });

  /** The console's button: queues the day's run (today when no day is given), audited. */
  async function queue(actor: Actor, day: string | undefined) {
    if (!deps.list) throw new AppError('payout_reconciliation_unavailable');
    const today = businessDayOf(now());
    const chosen = day ?? today;
    if (!dayPattern.test(chosen) || chosen > today) throw new AppError('payout_reconciliation_future_day');
    await db.transaction(async (tx) => {
      await enqueueOrRevive(tx, jobOf(chosen, actor.id));
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'payout_reconciliation.run',
        target: `payout_reconciliation:${chosen}`,
        after: { day: chosen },
        requestId: actor.requestId,
      });
    });
    deps.wakeJobs();
    return { day: chosen };
  }

  /** Periodic: yesterday's run, once it is over in India, unless a run of that day finished already. */
  async function daily() {
    if (!deps.list) return;
    const yesterday = businessDayOf(new Date(now().getTime() - 86_400_000));
    if (await q.reconciledDay(db, yesterday)) return;
    await enqueueOrRevive(db, jobOf(yesterday, null));
    deps.wakeJobs();
  }

  async function status(): Promise<PayoutReconciliationStatus> {
    return { referencePrefix: deps.referencePrefix, available: Boolean(deps.list), last: await lastRun() };
  }

  async function runJob(job: JobRow) {
    const day = String(job.payload.day ?? '');
    if (!dayPattern.test(day)) return;
    const startedBy = typeof job.payload.startedBy === 'number' ? job.payload.startedBy : null;
    await run(day, startedBy);
  }

  return { run, queue, daily, status, jobHandlers: { [RECONCILE_JOB]: runJob } };
}

export type Reconciliation = ReturnType<typeof createReconciliation>;
