import {
  PAYOUT_CALLBACK_ACK,
  PAYOUT_CALLBACK_MAX_SKEW_SECONDS,
  PAYOUT_CALLBACK_STATUSES,
  type PayoutCallbackStatus,
  parseRupees,
} from '@kamai/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { enqueueJob, enqueueOrRevive, type JobRow } from '../../platform/jobs.queries';
import { changeState, findWithdrawal, lockWithdrawal } from '../withdrawals';
import type { PayoutGateway } from './payouts.gateway';
import * as q from './payouts.queries';
import { type CallbackParams, verifySignature } from './payouts.signature';

export const DISPATCH_JOB = 'payout.dispatch';
const DISPATCH_KEY_PREFIX = 'payout:dispatch:';

export interface PayoutsOptions {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  gateway: PayoutGateway;
  /** PAYOUT_GATEWAY_SECRET, or the one generated and kept in settings. */
  secret: string;
  /** Our callback's absolute URL, given to the gateway with each payout. */
  notifyUrl: () => string;
  /** A processing withdrawal not settled this long after its dispatch is dispatched again. */
  reconcileAfterMs: number;
  /** A dispatch that gets no answer within this is abandoned and retried (same order number). */
  dispatchTimeoutMs: number;
  /** Nudges this process's job runner after new work was committed. */
  wakeJobs: () => void;
}

/** Payouts (DESIGN.md §5): dispatch approved withdrawals through the gateway, settle them by its callback. */
export function createPayoutsService(options: PayoutsOptions) {
  const { db, now, log, gateway, secret } = options;
  const dispatchJob = (withdrawalId: number, runAt: Date) => ({
    kind: DISPATCH_JOB,
    dedupeKey: `${DISPATCH_KEY_PREFIX}${withdrawalId}`,
    payload: { withdrawalId },
    runAt,
  });

  /** In the approval's transaction: one dispatch job per withdrawal, however many approvals race. */
  async function enqueueDispatch(tx: Tx, withdrawalId: number) {
    await enqueueJob(tx, dispatchJob(withdrawalId, now()));
  }

  /**
   * Job: hands the withdrawal to the gateway (our id as its idempotency key), then marks it processing.
   * A crash between the two runs the job again; the gateway treats the repeat as the same payout.
   */
  async function runDispatch(job: JobRow) {
    const id = Number(job.payload.withdrawalId);
    const withdrawal = await findWithdrawal(db, id);
    if (!withdrawal || (withdrawal.state !== 'approved' && withdrawal.state !== 'processing')) return;
    await gateway.dispatch(
      {
        orderNo: String(withdrawal.id),
        // The fee (0 unless the operator set one) stays with the platform; the account gets the rest.
        amount: withdrawal.amount - withdrawal.fee,
        account: {
          accountType: withdrawal.accountType,
          accountNo: withdrawal.accountNo,
          ifsc: withdrawal.ifsc,
          accountName: withdrawal.accountName,
        },
        notifyUrl: options.notifyUrl(),
      },
      AbortSignal.timeout(options.dispatchTimeoutMs),
    );
    await db.transaction(async (tx) => {
      const locked = await lockWithdrawal(tx, id);
      if (locked?.state === 'approved') await changeState(tx, locked, { to: 'processing', at: now() });
      else if (locked?.state === 'processing') await q.markDispatched(tx, id, now());
    });
  }

  /**
   * The gateway's callback (DESIGN.md §5). Refusals (bad or missing signature, stale `ts`, unknown
   * order, wrong amount, an order never dispatched) change nothing, are logged and answer 400/401.
   * A callback for a withdrawal already paid or failed changes nothing and is acknowledged.
   */
  async function callback(params: CallbackParams, requestLog: FastifyBaseLogger): Promise<typeof PAYOUT_CALLBACK_ACK> {
    const refuse = (key: ConstructorParameters<typeof AppError>[0], detail?: Record<string, unknown>) => {
      requestLog.warn(
        { orderNo: params.orderNo, status: params.status, refused: key, ...detail },
        'payout callback refused',
      );
      return new AppError(key, detail?.fields ? { fields: detail.fields } : {});
    };
    if (!verifySignature(params, secret)) throw refuse('payout_bad_signature');
    const ts = Number(params.ts);
    const skew = Math.abs(now().getTime() / 1000 - ts);
    if (!params.ts || !Number.isFinite(ts) || skew > PAYOUT_CALLBACK_MAX_SKEW_SECONDS) {
      throw refuse('payout_stale_timestamp', { ts: params.ts });
    }
    const status = params.status as PayoutCallbackStatus;
    if (!PAYOUT_CALLBACK_STATUSES.includes(status)) {
      throw refuse('validation_failed', { fields: { status: 'validation_failed' } });
    }
    const id = /^\d{1,15}$/.test(params.orderNo ?? '') ? Number(params.orderNo) : undefined;
    if (id === undefined) throw refuse('payout_unknown_order');
    const amount = parseRupees(params.amount ?? '');

    return db.transaction(async (tx): Promise<typeof PAYOUT_CALLBACK_ACK> => {
      const current = await lockWithdrawal(tx, id);
      if (!current) throw refuse('payout_unknown_order');
      if (amount !== current.amount - current.fee) throw refuse('payout_amount_mismatch', { amount: params.amount });
      if (current.state === 'pending' || current.state === 'rejected' || current.state === 'cancelled') {
        throw refuse('payout_order_not_dispatched', { state: current.state });
      }
      if (current.state === 'paid' || current.state === 'failed') {
        const same = (current.state === 'paid') === (status === 'success');
        if (!same)
          requestLog.warn(
            { orderNo: id, state: current.state, status },
            'payout callback contradicts a final state; ignored',
          );
        return PAYOUT_CALLBACK_ACK;
      }
      const at = now();
      // A callback can overtake the dispatch job's own update (or a crash can lose it): it proves the dispatch.
      const processing =
        current.state === 'approved' ? await changeState(tx, current, { to: 'processing', at }) : current;
      await changeState(
        tx,
        processing,
        status === 'success'
          ? { to: 'paid', at, reference: params.reference || null }
          : { to: 'failed', at, reason: params.reason || null },
      );
      return PAYOUT_CALLBACK_ACK;
    });
  }

  /**
   * Startup (and periodic) reconciliation: approved withdrawals whose dispatch job is gone, and processing
   * ones the gateway has not settled `reconcileAfterMs` after their dispatch, are dispatched again.
   */
  async function reconcile() {
    const at = now();
    const approved = await q.approvedWithoutDispatch(db, DISPATCH_KEY_PREFIX);
    const processing = await q.processingDispatchedBefore(db, new Date(at.getTime() - options.reconcileAfterMs));
    for (const id of [...approved, ...processing]) await enqueueOrRevive(db, dispatchJob(id, at));
    if (approved.length + processing.length > 0) {
      log.info({ approved, processing }, 'payout reconciliation: dispatching again');
      options.wakeJobs();
    }
    return { approved, processing };
  }

  return {
    enqueueDispatch,
    wake: () => options.wakeJobs(),
    callback,
    reconcile,
    jobHandlers: { [DISPATCH_JOB]: runDispatch },
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
