import { randomInt } from 'node:crypto';
import { formatRupees, PAYOUT_CALLBACK_ACK } from '@kamai/contract';
import type { Db } from '../../db/client';
import { enqueueJob, enqueueOrRevive, type JobRow } from '../../platform/jobs.queries';
import type { PayoutGateway, PayoutOrder } from './payouts.gateway';
import { type CallbackParams, signParams } from './payouts.signature';
import * as sq from './sandbox.queries';

export const SANDBOX_NOTIFY_JOB = 'masterpay-sandbox.notify';
const NOTIFY_TIMEOUT_MS = 10_000;
const FAILURE_REASON = 'Beneficiary bank declined the transfer (sandbox)';
/**
 * The notify URL of an order dispatched by a process that listens nowhere (an app driven by
 * `inject`): the outcome is kept and reported only when a dispatch again (reconciliation) brings an
 * address. Nothing is ever sent to a guessed one.
 */
const NOWHERE = '';

export interface SandboxOptions {
  db: Db;
  now: () => Date;
  secret: string;
  /** How long after a dispatch the outcome is reported (SANDBOX_PAYOUT_DELAY_MS). */
  delayMs: number;
  /** Share of payouts that fail, 0-1 (SANDBOX_PAYOUT_FAILURE_RATE). */
  failureRate: number;
}

/**
 * The "masterpay" sandbox (docs/design.md "Scope"): behaves like the real gateway. It keeps its own record of
 * each order (one per order number, decided once: success with a bank reference, or failure), and
 * after the delay calls the notify URL over HTTP with a signed callback, retrying until it is answered
 * `success`. A repeated dispatch of an order is the same payout: it is reported again (to the newest
 * notify URL, soon), never paid again.
 */
export function createSandboxGateway({ db, now, secret, delayMs, failureRate }: SandboxOptions) {
  const notifyJob = (orderNo: string) => ({
    kind: SANDBOX_NOTIFY_JOB,
    dedupeKey: `masterpay-sandbox:notify:${orderNo}`,
    payload: { orderNo },
    runAt: new Date(now().getTime() + delayMs),
  });

  async function dispatch(order: PayoutOrder, signal: AbortSignal): Promise<undefined> {
    signal.throwIfAborted();
    await db.transaction(async (tx) => {
      const failed = Math.random() < failureRate;
      const created = await sq.insertPayout(tx, {
        orderNo: order.orderNo,
        amount: order.amount,
        account: order.account,
        notifyUrl: order.notifyUrl ?? NOWHERE,
        status: failed ? 'failed' : 'success',
        reference: failed ? null : String(randomInt(100_000_000_000, 999_999_999_999)),
        reason: failed ? FAILURE_REASON : null,
        createdAt: now(),
      });
      if (created) {
        await enqueueJob(tx, notifyJob(order.orderNo));
        return;
      }
      const existing = await sq.lockPayout(tx, order.orderNo);
      if (existing?.amount !== order.amount) {
        throw new Error(`masterpay sandbox: order ${order.orderNo} exists with another amount`);
      }
      await sq.countRepeatDispatch(tx, order.orderNo, order.notifyUrl ?? NOWHERE);
      await enqueueOrRevive(tx, notifyJob(order.orderNo));
    });
  }

  /** Job: calls our callback with the order's outcome, signed; throws (so it is retried) unless acknowledged. */
  async function deliver(job: JobRow) {
    const orderNo = String(job.payload.orderNo);
    const payout = await sq.findPayout(db, orderNo);
    if (!payout || payout.notifyUrl === NOWHERE) return;
    const params: CallbackParams = {
      orderNo,
      status: payout.status,
      amount: formatRupees(payout.amount),
      ts: String(Math.floor(now().getTime() / 1000)),
      ...(payout.reference ? { reference: payout.reference } : {}),
      ...(payout.reason ? { reason: payout.reason } : {}),
    };
    const url = new URL(payout.notifyUrl);
    for (const [name, value] of Object.entries({ ...params, sign: signParams(params, secret) })) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    const response = await fetch(url, { signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS) });
    const body = await response.text();
    if (response.status !== 200 || body !== PAYOUT_CALLBACK_ACK) {
      throw new Error(`callback for order ${orderNo} answered ${response.status}: ${body.slice(0, 200)}`);
    }
    await sq.markNotified(db, orderNo, now());
  }

  const gateway: PayoutGateway = { name: 'masterpay-sandbox', dispatch };
  return { gateway, jobHandlers: { [SANDBOX_NOTIFY_JOB]: deliver } };
}
