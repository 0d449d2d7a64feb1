import {
  asPayoutStatus,
  PAYOUT_CALLBACK_ACK,
  PAYOUT_CALLBACK_MAX_SKEW_SECONDS,
  PAYOUT_CALLBACK_STATUSES,
  type PayoutCallbackStatus,
  type PayoutGatewayName,
  type PayoutStatusStep,
  parseRupees,
  payoutStatusCanFollow,
  payoutStatusStep,
  RAZORPAYX_PAYOUT_EVENTS,
  RAZORPAYX_VALIDATION_EVENTS,
  razorpayxWebhookBody,
} from '@kamai/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { enqueueOrRevive, type JobRow, jobPart } from '../../platform/jobs.queries';
import { type AccountValidations, verdictOf } from '../payout-accounts';
import {
  approvedTo,
  approvedWithoutDispatch,
  changeState,
  findWithdrawal,
  fixPayoutReference,
  lockWithdrawal,
  markDispatched,
  processingDispatchedBefore,
  setGatewayPayoutId,
  setGatewayStatus,
  setReference,
  type WithdrawalRow,
  withdrawalIdByPayout,
  withdrawalIdByReference,
} from '../withdrawals';
import type { Applied, PayoutGateway, PayoutGateways, Report } from './payouts.gateway';
import * as q from './payouts.queries';
import { outcomeOf, type RazorpayxGatewayClient, verifyWebhookSignature } from './payouts.razorpayx';
import { createReconciliation } from './payouts.reconciliation';
import { newPayoutReference } from './payouts.references';
import { type CallbackParams, verifySignature } from './payouts.signature';

export const DISPATCH_JOB = 'payout.dispatch';
const DISPATCH_KEY_PREFIX = 'payout:dispatch:';

export interface PayoutsOptions {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The gateways by the name a withdrawal records; `sandbox` is always there. */
  gateways: PayoutGateways & { sandbox: PayoutGateway };
  /** The gateway newly approved withdrawals are paid through (PAYOUT_GATEWAY). */
  defaultGateway: PayoutGatewayName;
  /** PAYOUT_GATEWAY_SECRET, or the one generated and kept in settings. */
  secret: string;
  /** RazorpayX webhook secrets accepted now: the current one, and the previous one during a rotation. */
  razorpayxWebhookSecrets: string[];
  /** Our callback's absolute URL, given to the gateway with each payout; null while nothing listens. */
  notifyUrl: () => string | null;
  /** A processing withdrawal not settled this long after its dispatch is dispatched again. */
  reconcileAfterMs: number;
  /** A dispatch that gets no answer within this is abandoned and retried (same order number). */
  dispatchTimeoutMs: number;
  /** Nudges this process's job runner after new work was committed. */
  wakeJobs: () => void;
  /** Counts a mismatch opened by this process (the /metrics gauges read the table). */
  onMismatch?: (gateway: PayoutGatewayName) => void;
  /** Payout account checks: a payout waits for its number's check, and never goes to a refused number. */
  validations?: Pick<AccountValidations, 'payeeOf' | 'webhook'>;
  /** This installation's prefix in payout references (payouts.references.ts). */
  referencePrefix: string;
  /** RazorpayX's list of payouts, for the daily reconciliation (absent: RazorpayX is not configured). */
  razorpayxList?: RazorpayxGatewayClient['listPayouts'];
  /** Most RazorpayX calls a second while the reconciliation pages (RAZORPAYX_REQUESTS_PER_SECOND). */
  razorpayxRequestsPerSecond?: number;
  razorpayxTimeoutMs?: number;
}

/** Report statuses that say the gateway paid: masterpay `success`, RazorpayX `processed`. */
export const PAID_STATUSES = ['success', 'processed'] as const;
/** Report statuses that say the bank returned a paid payout: RazorpayX `reversed`. */
export const RETURNED_STATUSES = ['reversed'] as const;
const CLAIMS_PAID = new Set<string>(PAID_STATUSES);

/**
 * Whether "recover" applies to a mismatch: the gateway's last word is that it paid (a report or its
 * record says processed), the amount went back to the wallet (failed or reversed) and the payout's
 * furthest status Kamai knows is not one after processed (reversed: the bank returned the money, so
 * the user was not paid twice). Never for a mismatch found without such a report.
 */
export function isRecoverable(
  mismatch: { kind: string; callbackStatus: string },
  withdrawal: { state: string; gatewayStatus: string | null },
  sameAmount: boolean,
) {
  const held = asPayoutStatus(withdrawal.gatewayStatus);
  const returnedByBank = held !== null && held !== 'processed' && payoutStatusCanFollow('processed', held);
  return (
    (mismatch.kind === 'callback' || mismatch.kind === 'status') &&
    CLAIMS_PAID.has(mismatch.callbackStatus) &&
    (withdrawal.state === 'failed' || withdrawal.state === 'reversed') &&
    sameAmount &&
    !returnedByBank
  );
}

/** Payouts (docs/design.md "State machines"): dispatch approved withdrawals through their gateway, settle them by its reports. */
export function createPayoutsService(options: PayoutsOptions) {
  const { db, now, log, gateways, secret } = options;
  const dispatchJob = (withdrawalId: number, runAt: Date) => ({
    kind: DISPATCH_JOB,
    dedupeKey: `${DISPATCH_KEY_PREFIX}${withdrawalId}`,
    payload: { withdrawalId },
    runAt,
  });

  /**
   * For the approval's statement: fixes the gateway that pays it (so changing PAYOUT_GATEWAY later never
   * strands it) and queues one dispatch job per withdrawal, however many approvals race.
   */
  function dispatchWrites(withdrawalId: number) {
    return { gateway: options.defaultGateway, with: [jobPart('payout_job', dispatchJob(withdrawalId, now()))] };
  }

  /**
   * Opens a payout mismatch for a report that contradicts the withdrawal's state (hardening issue,
   * defect 4): recorded with the callback that settled it and the contradicting one, logged, counted.
   */
  async function openMismatch(tx: Tx, current: WithdrawalRow, report: Report, callbackId: number) {
    const settledCallbackId = await q.lastAppliedCallback(tx, current.id, callbackId);
    const reference = report.outcome.status === 'paid' ? report.outcome.reference : null;
    const id = await q.insertMismatch(tx, {
      kind: report.kind ?? 'callback',
      withdrawalId: current.id,
      gatewayPayoutId: current.gatewayPayoutId,
      gateway: report.gateway,
      dedupeKey: report.eventKey,
      state: current.state,
      callbackStatus: report.gatewayStatus,
      callbackAmount: report.amount,
      callbackReference: reference,
      settledCallbackId: settledCallbackId ?? null,
      callbackId,
      createdAt: now(),
    });
    if (id !== undefined) {
      log.error(
        { withdrawalId: current.id, mismatchId: id, state: current.state, callbackStatus: report.gatewayStatus },
        'payout mismatch: a signed gateway report contradicts the withdrawal; opened for an operator',
      );
      options.onMismatch?.(report.gateway);
    }
  }

  /**
   * Applies a gateway's report to a locked withdrawal, once per event key (duplicates change nothing),
   * read against the payout's life cycle (RAZORPAYX_PAYOUT_TRANSITIONS in the contract): a status that
   * comes before the furthest one Kamai holds (processed after reversed, in whatever order the webhooks
   * came) is `stale` and changes nothing. Approved/processing: settles it (a reversal before it was
   * ever processed is a failure: the money came back). Paid + reversed: reversed, money back to the
   * wallet. A report that contradicts the state (processed after failed or cancelled, failed after
   * processed, another amount or bank reference) opens a mismatch and changes nothing. Anything else
   * repeats what is known and changes nothing.
   */
  async function applyReport(tx: Tx, current: WithdrawalRow, report: Report): Promise<Applied> {
    const at = now();
    const reported = asPayoutStatus(report.gatewayStatus);
    const step: PayoutStatusStep = reported
      ? payoutStatusStep(asPayoutStatus(current.gatewayStatus), reported)
      : 'advance';
    const recorded = await q.recordCallback(tx, {
      withdrawalId: current.id,
      gateway: report.gateway,
      eventKey: report.eventKey,
      status: report.gatewayStatus,
      payload: report.payload,
      createdAt: at,
    });
    if (!recorded.created) return 'duplicate';
    if (step === 'stale') {
      log.info(
        { withdrawalId: current.id, held: current.gatewayStatus, reported: report.gatewayStatus },
        'payout report older than the status held: changes nothing',
      );
      return 'stale';
    }
    const { outcome } = report;
    const advance = async () => {
      if (reported && step === 'advance') await setGatewayStatus(tx, current.id, reported);
    };
    // The gateway is asked to pay amount − fee in INR, so that is what it must report; a report of
    // anything else settles nothing (it opens a mismatch), whatever its status.
    const wrongAmount =
      (report.amount !== null && report.amount !== current.amount - current.fee) ||
      (report.currency != null && report.currency !== 'INR');
    const settle = async (change: Parameters<typeof changeState>[2]) => {
      // A report can overtake the dispatch job's own update (or a crash can lose it): it proves the dispatch.
      const processing =
        current.state === 'approved' ? await changeState(tx, current, { to: 'processing', at }) : current;
      await changeState(tx, processing, change);
      await advance();
      await q.markCallbackApplied(tx, recorded.id);
      return 'applied' as const;
    };
    const contradiction = async () => {
      await openMismatch(tx, current, report, recorded.id);
      return 'mismatch' as const;
    };

    switch (current.state) {
      case 'approved':
      case 'processing':
        if (wrongAmount) return contradiction();
        if (outcome.status === 'paid') return settle({ to: 'paid', at, reference: outcome.reference });
        return settle({ to: 'failed', at, reason: outcome.reason });
      case 'paid':
        // A reversal of another amount or currency returns nothing: an operator looks at it.
        if (wrongAmount) return contradiction();
        if (outcome.status === 'reversed') {
          await changeState(tx, current, { to: 'reversed', at, reason: outcome.reason });
          await advance();
          await q.markCallbackApplied(tx, recorded.id);
          return 'applied';
        }
        if (outcome.status === 'failed') return contradiction();
        if (outcome.reference && current.reference && outcome.reference !== current.reference) return contradiction();
        if (outcome.reference && !current.reference) {
          // The UTR often comes after `processed`, in `payout.updated` (https://razorpay.com/docs/webhooks/payloads/x/).
          await setReference(tx, current.id, outcome.reference);
          await advance();
          await q.markCallbackApplied(tx, recorded.id);
          return 'applied';
        }
        return 'unchanged';
      case 'failed':
      case 'reversed':
        return outcome.status === 'paid' ? contradiction() : 'unchanged';
      default:
        throw new AppError('payout_order_not_dispatched', {});
    }
  }

  /**
   * Job: hands the withdrawal to its gateway (our id as its idempotency key), then marks it processing,
   * keeps the gateway's payout id, and applies the state the gateway answered (RazorpayX may answer a
   * settled payout, e.g. when reconciliation fetches it). A crash between the steps runs the job again;
   * the gateway treats the repeat as the same payout.
   */
  async function runDispatch(job: JobRow) {
    const id = Number(job.payload.withdrawalId);
    const withdrawal = await findWithdrawal(db, id);
    if (!withdrawal || (withdrawal.state !== 'approved' && withdrawal.state !== 'processing')) return;
    const name = withdrawal.gateway ?? 'sandbox';
    const gateway = gateways[name];
    if (!gateway) throw new Error(`withdrawal ${id} is paid through ${name}, which is not configured here`);
    // Never handed to the gateway yet: the number's check decides (docs/decisions/payout-account-validation.md).
    // Still under way: the dispatch waits (the check's result queues it again). Refused: it fails and
    // the hold goes back. One already dispatched is the gateway's, whatever the check says.
    if (withdrawal.state === 'approved' && withdrawal.dispatchedAt === null && !withdrawal.gatewayPayoutId) {
      const payee = await options.validations?.payeeOf(db, withdrawal);
      const verdict = verdictOf(payee);
      if (verdict === 'pending') {
        log.info({ withdrawalId: id, validationId: payee?.id }, 'payout waits for the payout account check');
        return;
      }
      if (verdict === 'blocked') {
        await db.transaction(async (tx) => {
          const locked = await lockWithdrawal(tx, id);
          if (locked?.state !== 'approved' || locked.dispatchedAt !== null) return;
          const at = now();
          const processing = await changeState(tx, locked, { to: 'processing', at });
          await changeState(tx, processing, {
            to: 'failed',
            at,
            reason: `Payout account could not be verified: ${payee?.reason ?? 'the bank refused it'}`,
          });
        });
        return;
      }
    }
    // Fixed at the first dispatch and kept: every retry sends the same reference and key
    // (payouts.references.ts); one already sent (before references had a prefix) keeps its own.
    const sent =
      withdrawal.payoutReference && withdrawal.payoutIdempotencyKey
        ? { reference: withdrawal.payoutReference, idempotencyKey: withdrawal.payoutIdempotencyKey }
        : await fixPayoutReference(db, id, newPayoutReference(options.referencePrefix, id), now());
    const result = await gateway.dispatch(
      {
        orderNo: String(withdrawal.id),
        reference: sent.reference,
        idempotencyKey: sent.idempotencyKey,
        userId: withdrawal.userId,
        // The fee (0 unless the operator set one) stays with the platform; the account gets the rest.
        amount: withdrawal.amount - withdrawal.fee,
        account: {
          accountType: withdrawal.accountType,
          accountNo: withdrawal.accountNo,
          ifsc: withdrawal.ifsc,
          accountName: withdrawal.accountName,
        },
        notifyUrl: options.notifyUrl(),
        payoutId: withdrawal.gatewayPayoutId,
        attempted: withdrawal.state === 'processing' || job.attempts > 1 || withdrawal.dispatchedAt !== null,
      },
      AbortSignal.timeout(options.dispatchTimeoutMs),
    );
    await db.transaction(async (tx) => {
      let locked = await lockWithdrawal(tx, id);
      if (!locked) return;
      if (result?.payoutId && locked.gatewayPayoutId !== result.payoutId) {
        await setGatewayPayoutId(tx, id, result.payoutId);
      }
      if (locked.state === 'approved') locked = await changeState(tx, locked, { to: 'processing', at: now() });
      else if (locked.state === 'processing') await markDispatched(tx, id, now());
      const outcome = result?.outcome;
      if (outcome && outcome.status !== 'processing' && (locked.state === 'processing' || locked.state === 'paid')) {
        const status = result.gatewayStatus ?? outcome.status;
        await applyReport(tx, locked, {
          gateway: name,
          eventKey: `${name}:${result.payoutId ?? `withdrawal-${id}`}:${status}`,
          gatewayStatus: status,
          outcome,
          amount: null,
          payload: { source: 'dispatch', ...(result.evidence ?? {}) },
        });
      }
    });
  }

  /**
   * The masterpay callback (docs/design.md "State machines"). Refusals (bad or missing signature, stale `ts`, unknown
   * order, wrong amount while open, an order never dispatched) change nothing, are logged and answer
   * 400/401. A callback that contradicts a final state opens a payout mismatch and is acknowledged.
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
      if (!current || (current.gateway ?? 'sandbox') !== 'sandbox') throw refuse('payout_unknown_order');
      const final = current.state === 'paid' || current.state === 'failed' || current.state === 'reversed';
      // The gateway pays amount − fee (the fee stays with the platform).
      if (amount !== current.amount - current.fee && !(final && status === 'success' && amount !== undefined)) {
        throw refuse('payout_amount_mismatch', { amount: params.amount });
      }
      if (current.state === 'pending' || current.state === 'rejected' || current.state === 'cancelled') {
        throw refuse('payout_order_not_dispatched', { state: current.state });
      }
      const result = await applyReport(tx, current, {
        gateway: current.gateway ?? 'sandbox',
        eventKey:
          status === 'success'
            ? `masterpay:${id}:success:${params.amount}:${params.reference ?? ''}`
            : `masterpay:${id}:failed`,
        gatewayStatus: status,
        outcome:
          status === 'success'
            ? { status: 'paid', reference: params.reference || null }
            : { status: 'failed', reason: params.reason || null },
        amount: amount ?? null,
        payload: { ...params },
      });
      if (result === 'mismatch') {
        requestLog.warn({ orderNo: id, state: current.state, status }, 'payout callback contradicts a final state');
      }
      return PAYOUT_CALLBACK_ACK;
    });
  }

  /**
   * RazorpayX webhooks: the signature over the raw bytes is checked first (401 otherwise, nothing read);
   * then the JSON; every signed delivery answers 200. Payout events we act on settle the withdrawal by `reference_id` (our withdrawal id,
   * cross-checked with the payout id we keep); each (payout id, status) is applied once, as their docs
   * advise; others are acknowledged. A signed report that contradicts the state opens a mismatch.
   */
  async function razorpayxWebhook(
    raw: Buffer | undefined,
    signature: string | undefined,
    requestLog: FastifyBaseLogger,
  ) {
    if (!gateways.razorpayx || options.razorpayxWebhookSecrets.length === 0) {
      requestLog.warn('razorpayx webhook refused: RazorpayX is not configured');
      throw new AppError('payout_bad_signature');
    }
    if (!raw || !verifyWebhookSignature(raw, signature, options.razorpayxWebhookSecrets)) {
      requestLog.warn(
        { bytes: raw?.length ?? 0, signed: Boolean(signature) },
        'razorpayx webhook refused: bad signature',
      );
      throw new AppError('payout_bad_signature');
    }
    // From here the delivery is Razorpay's: every answer is 2xx, since any other counts as a failed
    // delivery and a webhook failing for 24 h is disabled (https://razorpay.com/docs/webhooks/best-practices).
    // What cannot be used is logged with the reason and ignored.
    // and recorded in payout_webhooks_ignored, where operators find it.
    let recorded: Record<string, unknown> = { bytes: raw.length };
    const ignore = async (reason: string, detail: Record<string, unknown> = {}) => {
      requestLog.warn({ ...detail, ignored: reason }, 'razorpayx webhook ignored');
      const str = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);
      await q.recordIgnoredWebhook(db, {
        gateway: 'razorpayx',
        event: str(detail.event),
        payoutId: str(detail.payoutId),
        referenceId: str(detail.referenceId),
        reason,
        payload: recorded,
      });
      return { applied: false };
    };
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      return ignore('not JSON', { bytes: raw.length });
    }
    if (json && typeof json === 'object' && !Array.isArray(json)) recorded = json as Record<string, unknown>;
    const parsed = razorpayxWebhookBody.safeParse(json);
    if (!parsed.success) {
      const event = (recorded as { event?: unknown }).event;
      return ignore('unexpected shape', { event, issues: parsed.error.issues.slice(0, 3) });
    }
    const event = parsed.data.event;
    // Account checks share the route (https://razorpay.com/docs/webhooks/account-validation/).
    const validation = (parsed.data.payload as Record<string, unknown>)['fund_account.validation'] as
      | { entity?: unknown }
      | undefined;
    if ((RAZORPAYX_VALIDATION_EVENTS as readonly string[]).includes(event) && validation && options.validations) {
      return options.validations.webhook(event, validation.entity, requestLog);
    }
    const payout = parsed.data.payload.payout?.entity;
    if (!payout || !(RAZORPAYX_PAYOUT_EVENTS as readonly string[]).includes(event)) {
      requestLog.info({ event, payoutId: payout?.id }, 'razorpayx webhook acknowledged, not acted on');
      return { applied: false };
    }
    // The entity's status is what counts: `payout.updated` carries a queued payout's cancellation and
    // the UTR that comes after `processed` (https://razorpay.com/docs/webhooks/payloads/x/).
    const outcome = outcomeOf(payout);
    if (outcome.status === 'processing') {
      requestLog.info({ event, payoutId: payout.id, status: payout.status }, 'razorpayx webhook: nothing to settle');
      return { applied: false };
    }
    // Only a reference this installation sent (with its prefix, or the withdrawal id it sent before
    // references had one) names a withdrawal: another installation's payout on the same account never does.
    const byReference = payout.reference_id ? await withdrawalIdByReference(db, payout.reference_id) : undefined;
    const byPayout = await withdrawalIdByPayout(db, 'razorpayx', payout.id);
    const id = byPayout ?? byReference;
    const about = { event, payoutId: payout.id, referenceId: payout.reference_id };
    if (id === undefined || (byPayout !== undefined && byReference !== undefined && byPayout !== byReference)) {
      return ignore('a payout Kamai did not make', about);
    }
    const result = await db.transaction(async (tx): Promise<Applied | string> => {
      const current = await lockWithdrawal(tx, id);
      if (current?.gateway !== 'razorpayx') return 'a payout Kamai did not make';
      if (current.gatewayPayoutId && current.gatewayPayoutId !== payout.id) return 'another payout of this withdrawal';
      if (current.state === 'pending' || current.state === 'rejected' || current.state === 'cancelled') {
        return `the withdrawal is ${current.state}, never dispatched`;
      }
      // The create call's answer can be lost; the webhook then tells us the payout's id.
      if (!current.gatewayPayoutId) await setGatewayPayoutId(tx, id, payout.id);
      // The key holds what the report says (status, amount, currency, UTR): a report of another amount
      // never stands in for the right one, and a later UTR is a new report.
      const currency = payout.currency ?? null;
      return applyReport(tx, current, {
        gateway: 'razorpayx',
        eventKey: `razorpayx:${payout.id}:${payout.status}:${payout.amount}:${currency ?? ''}:${payout.utr ?? ''}`,
        gatewayStatus: payout.status,
        outcome,
        amount: BigInt(payout.amount),
        currency,
        payload: { event, payout },
      });
    });
    if (!['applied', 'duplicate', 'unchanged', 'stale', 'mismatch'].includes(result)) {
      return ignore(result, { ...about, withdrawalId: id });
    }
    requestLog.info({ ...about, withdrawalId: id, result }, 'razorpayx webhook');
    return { applied: result === 'applied' };
  }

  /**
   * Startup (and periodic) reconciliation: approved withdrawals whose dispatch job is gone, and processing
   * ones not settled `reconcileAfterMs` after their dispatch, are dispatched again: the sandbox reports
   * again; RazorpayX is asked for the payout by id (its state applied), or, when it does not know it,
   * it is created again with the same idempotency key.
   */
  async function reconcile() {
    const at = now();
    const approved: number[] = [];
    for (const id of await approvedWithoutDispatch(db, DISPATCH_KEY_PREFIX)) {
      // One waiting for its account's check is queued again by the check's result, not here.
      const withdrawal = await findWithdrawal(db, id);
      const waiting = withdrawal && verdictOf(await options.validations?.payeeOf(db, withdrawal)) === 'pending';
      if (!waiting) approved.push(id);
    }
    const processing = await processingDispatchedBefore(db, new Date(at.getTime() - options.reconcileAfterMs));
    for (const id of [...approved, ...processing]) await enqueueOrRevive(db, dispatchJob(id, at));
    if (approved.length + processing.length > 0) {
      log.info({ approved, processing }, 'payout reconciliation: dispatching again');
      options.wakeJobs();
    }
    return { approved, processing };
  }

  /** A number's check settled: approved withdrawals to it that waited are dispatched (or failed) now. */
  async function afterValidation(tx: Tx, v: { accountType: string; accountNo: string; ifsc: string }) {
    const ids = await approvedTo(tx, v);
    for (const id of ids) await enqueueOrRevive(tx, dispatchJob(id, now()));
    if (ids.length > 0) options.wakeJobs();
  }

  const reconciliation = createReconciliation({
    db,
    now,
    log,
    list: options.razorpayxList,
    referencePrefix: options.referencePrefix,
    requestsPerSecond: options.razorpayxRequestsPerSecond ?? 5,
    timeoutMs: options.razorpayxTimeoutMs ?? 15_000,
    applyReport,
    onMismatch: () => options.onMismatch?.('razorpayx'),
    wakeJobs: options.wakeJobs,
  });

  return {
    dispatchWrites,
    afterValidation,
    reconciliation,
    wake: () => options.wakeJobs(),
    callback,
    razorpayxWebhook,
    reconcile,
    jobHandlers: { [DISPATCH_JOB]: runDispatch, ...reconciliation.jobHandlers },
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
