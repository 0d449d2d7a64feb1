import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RazorpayxPayoutEntity } from '@kamai/contract';
import { razorpayxPayoutEntity } from '@kamai/contract';
import { z } from 'zod';
import type { DispatchResult, PayoutGateway, PayoutOrder, PayoutOutcome } from './payouts.gateway';

/**
 * RazorpayX Payouts (docs/decisions/razorpayx-payouts.md cites the pages this follows):
 * - create: `POST /v1/payouts`, the composite form (fund account and contact inline), HTTP basic auth
 *   with the key id and secret, `X-Payout-Idempotency` (4-36 of letters, digits, `-`, `_`, space);
 * - fetch: `GET /v1/payouts/:id`;
 * - errors: `{error: {code, description, field, source, step, reason, metadata}}`; 400
 *   `BAD_REQUEST_ERROR` is the caller's, 401 refused credentials, 5xx theirs;
 * - webhooks: `X-Razorpay-Signature` = hex HMAC-SHA256 of the raw body keyed by the webhook secret.
 */
export interface RazorpayxOptions {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** Our RazorpayX business account the money leaves from (not the beneficiary's). */
  accountNumber: string;
  /** One API call's limit; past it the call is abandoned and the job retries with the same key. */
  timeoutMs: number;
}

/** RazorpayX's error body, as far as we read it (https://razorpay.com/docs/errors/x/). */
export interface RazorpayxErrorBody {
  code?: string;
  description?: string;
  field?: string | null;
  source?: string | null;
  step?: string | null;
  reason?: string | null;
  metadata?: unknown;
}

/** An answer that leaves the payout's fate unknown: the dispatch is retried with the same idempotency key. */
export class RazorpayxError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly error?: RazorpayxErrorBody,
  ) {
    super(message);
  }
}

export const IDEMPOTENCY_HEADER = 'X-Payout-Idempotency';

/** A listed payout: the entity plus its fees, tax and creation time (https://razorpay.com/docs/api/x/payouts/fetch-all). */
export const razorpayxListedPayout = razorpayxPayoutEntity.extend({
  fees: z.number().int().nonnegative().nullish(),
  tax: z.number().int().nonnegative().nullish(),
  created_at: z.number().int(),
});
export type RazorpayxListedPayout = z.infer<typeof razorpayxListedPayout>;

export type RazorpayxGatewayClient = ReturnType<typeof createRazorpayxGateway>;

/**
 * The composite payout body for an order, built only from the withdrawal's own (frozen) fields, so a
 * retry sends the very same body (RazorpayX refuses the same key with another body).
 */
export function payoutBody(order: PayoutOrder, accountNumber: string) {
  const contact = { name: order.account.accountName, type: 'customer', reference_id: `kamai-user-${order.userId}` };
  const upi = order.account.accountType === 'upi';
  return {
    account_number: accountNumber,
    amount: Number(order.amount),
    currency: 'INR',
    mode: upi ? 'UPI' : 'IMPS',
    purpose: 'payout',
    fund_account: upi
      ? { account_type: 'vpa', vpa: { address: order.account.accountNo }, contact }
      : {
          account_type: 'bank_account',
          bank_account: {
            name: order.account.accountName,
            ifsc: order.account.ifsc,
            account_number: order.account.accountNo,
          },
          contact,
        },
    queue_if_low_balance: true,
    reference_id: order.reference,
    narration: `Kamai payout ${order.orderNo}`,
    notes: { withdrawal_id: order.orderNo },
  };
}

/** A payout's RazorpayX status as our outcome. Queued, pending, scheduled, processing: not settled yet. */
export function outcomeOf(payout: RazorpayxPayoutEntity): PayoutOutcome {
  const reason = payout.status_details?.description || payout.failure_reason || null;
  switch (payout.status) {
    case 'processed':
      return { status: 'paid', reference: payout.utr || null };
    case 'failed':
    case 'rejected':
    case 'cancelled':
      return { status: 'failed', reason: reason ?? `RazorpayX: ${payout.status}` };
    case 'reversed':
      return { status: 'reversed', reason: reason ?? 'RazorpayX: reversed' };
    default:
      return { status: 'processing' };
  }
}

/** Whether `signature` is the hex HMAC-SHA256 of `raw` under any of `secrets`, compared in constant time. */
export function verifyWebhookSignature(raw: Buffer, signature: string | undefined, secrets: string[]): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  let ok = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(raw).digest();
    // Every secret is tried (no early exit), so the time does not tell which one matched.
    if (timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

export function signWebhook(raw: Buffer | string, secret: string) {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

/** RazorpayX answers an unknown payout id with 400 "The id provided does not exist" (404 accepted too). */
function isUnknownPayout(status: number, error: RazorpayxErrorBody | undefined) {
  return status === 404 || (status === 400 && /does not exist/i.test(error?.description ?? ''));
}

/**
 * The signal of one call: aborted by the caller's `signal` or after `timeoutMs`, whichever comes first.
 * Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: fetch follows the signal it is given only
 * weakly, `any()` holds its sources weakly and the timeout's timer holds its signal weakly, so a garbage
 * collection during the call can drop them all and a server that never answers then hangs the call for
 * good (seen in CI: a payout job stuck on a hung RazorpayX answer; nodejs/undici#4068, nodejs/node#55428).
 * Here the timer's callback holds the controller, so the deadline lives until `clear()`.
 */
function callDeadline(signal: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * The HTTP client of the RazorpayX API (basic auth with the key id and secret, JSON, one call's
 * timeout), shared by every RazorpayX feature (payouts here; fund-account validation can use it too).
 * It never throws on an HTTP status: the caller reads `status` and the documented error body; no answer
 * at all (network, timeout) throws a RazorpayxError with a null status.
 */
export function razorpayxClient(options: Pick<RazorpayxOptions, 'baseUrl' | 'keyId' | 'keySecret' | 'timeoutMs'>) {
  const auth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const base = options.baseUrl.replace(/\/+$/, '');
  return async function call(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    signal: AbortSignal,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: unknown }> {
    const deadline = callDeadline(signal, options.timeoutMs);
    let response: Response;
    let text: string;
    try {
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: auth,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: deadline.signal,
        });
      } catch (error) {
        throw new RazorpayxError(`RazorpayX ${method} ${path}: no answer (${(error as Error).name})`, null);
      }
      text = await response.text().catch(() => '');
    } finally {
      deadline.clear();
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  };
}

export type RazorpayxCall = ReturnType<typeof razorpayxClient>;

export function createRazorpayxGateway(options: RazorpayxOptions) {
  const call = razorpayxClient(options);

  const errorOf = (json: unknown) => (json as { error?: RazorpayxErrorBody } | undefined)?.error;

  function entityOf(json: unknown, order: PayoutOrder, what: string): RazorpayxPayoutEntity {
    const parsed = razorpayxPayoutEntity.safeParse(json);
    if (!parsed.success) throw new RazorpayxError(`RazorpayX ${what}: an answer that is not a payout`, 200);
    const payout = parsed.data;
    if (
      payout.reference_id !== order.reference ||
      BigInt(payout.amount) !== order.amount ||
      (payout.currency !== undefined && payout.currency !== 'INR')
    ) {
      throw new RazorpayxError(
        `RazorpayX ${what}: payout ${payout.id} is for reference ${payout.reference_id} and ${payout.amount} ${payout.currency ?? 'INR'} (paise), not ${order.reference} (withdrawal ${order.orderNo})`,
        200,
      );
    }
    return payout;
  }

  const settled = (payout: RazorpayxPayoutEntity): DispatchResult => ({
    payoutId: payout.id,
    outcome: outcomeOf(payout),
    evidence: payout as Record<string, unknown>,
    gatewayStatus: payout.status,
  });

  /** The payout's current state by its id, or undefined when RazorpayX does not know it. */
  async function fetchPayout(order: PayoutOrder, payoutId: string, signal: AbortSignal) {
    const { status, json } = await call('GET', `/v1/payouts/${encodeURIComponent(payoutId)}`, signal);
    if (status === 200) return settled(entityOf(json, order, `fetch ${payoutId}`));
    const error = errorOf(json);
    if (isUnknownPayout(status, error)) return undefined;
    throw new RazorpayxError(
      `RazorpayX fetch ${payoutId} answered ${status}: ${error?.description ?? ''}`,
      status,
      error,
    );
  }

  /**
   * The payouts RazorpayX holds under our reference, newest first: `GET /v1/payouts`
   * with `account_number` (required) and `reference_id`
   * (https://razorpay.com/docs/api/x/payouts/fetch-all; the answer is `{entity: "collection", count, items}`).
   */
  async function findByReference(order: PayoutOrder, signal: AbortSignal) {
    const query = new URLSearchParams({ account_number: options.accountNumber, reference_id: order.reference });
    const { status, json } = await call('GET', `/v1/payouts?${query}`, signal);
    const error = errorOf(json);
    if (status !== 200) {
      throw new RazorpayxError(`RazorpayX list by reference ${order.orderNo} answered ${status}`, status, error);
    }
    const items = (json as { items?: unknown } | undefined)?.items;
    if (!Array.isArray(items)) throw new RazorpayxError('RazorpayX list by reference: not a collection', 200);
    const found = items
      .map((item) => razorpayxPayoutEntity.safeParse(item))
      .filter((p) => p.success)
      .map((p) => p.data)
      .filter((p) => p.reference_id === order.reference);
    // One that is paid or still moving wins over a failed attempt; otherwise the newest.
    return found.find((p) => outcomeOf(p).status !== 'failed') ?? found[0];
  }

  async function create(order: PayoutOrder, signal: AbortSignal): Promise<DispatchResult> {
    const { status, json } = await call('POST', '/v1/payouts', signal, payoutBody(order, options.accountNumber), {
      [IDEMPOTENCY_HEADER]: order.idempotencyKey,
    });
    if (status === 200 || status === 201) return settled(entityOf(json, order, `create ${order.orderNo}`));
    const error = errorOf(json);
    const message = `RazorpayX create ${order.orderNo} answered ${status}: ${error?.code ?? ''} ${error?.description ?? ''}`;
    // A refused idempotency key (missing, malformed, reused with another body) is our bug or a changed
    // setting, never the payee's: the money's fate is unknown, so nothing is settled and it is retried.
    if (status === 400 && error?.code === 'BAD_REQUEST_ERROR' && error.field !== IDEMPOTENCY_HEADER) {
      // A validation refusal is final only if no earlier attempt can have made the payout: RazorpayX is
      // asked for it by reference first, and what it holds is acted on (never a refund of a paid payout).
      const existing = await findByReference(order, signal);
      if (existing) return settled(entityOf(existing, order, `lookup ${order.orderNo}`));
      if (order.attempted) {
        // Not found under this account, yet an earlier attempt may have reached RazorpayX (e.g. the
        // account number changed between attempts): ambiguous, so it stays processing for an operator.
        throw new RazorpayxError(`${message} (after an earlier attempt; no payout found by reference)`, status, error);
      }
      return {
        outcome: { status: 'failed', reason: error.description || 'RazorpayX refused the payout' },
        evidence: { status, error },
        gatewayStatus: 'refused',
      };
    }
    throw new RazorpayxError(message, status, error);
  }

  /**
   * Creates the payout, or (reconciliation, a payout id known) fetches it; a payout RazorpayX does not
   * know is created again with the same idempotency key, so it exists once whatever was lost.
   */
  async function dispatch(order: PayoutOrder, signal: AbortSignal): Promise<DispatchResult> {
    if (order.payoutId) {
      const known = await fetchPayout(order, order.payoutId, signal);
      if (known) return known;
    }
    return create(order, signal);
  }

  /**
   * One page of the payouts created in [from, to] (unix seconds): `GET /v1/payouts` with
   * `account_number`, `from`, `to`, `count` (at most 100) and `skip`
   * (https://razorpay.com/docs/api/x/payouts/fetch-all, https://razorpay.com/docs/api/pagination).
   * Answers the HTTP status, so the caller can honour a 429 (rate limited) with a backoff.
   */
  async function listPayouts(
    page: { from: number; to: number; count: number; skip: number },
    signal: AbortSignal,
  ): Promise<{ status: number; items?: RazorpayxListedPayout[]; error?: RazorpayxErrorBody }> {
    const query = new URLSearchParams({
      account_number: options.accountNumber,
      from: String(page.from),
      to: String(page.to),
      count: String(page.count),
      skip: String(page.skip),
    });
    const { status, json } = await call('GET', `/v1/payouts?${query}`, signal);
    if (status !== 200) return { status, error: errorOf(json) };
    const items = (json as { entity?: unknown; items?: unknown } | undefined)?.items;
    if (!Array.isArray(items)) throw new RazorpayxError('RazorpayX list: not a collection', 200);
    return {
      status,
      items: items.map((item) => {
        const parsed = razorpayxListedPayout.safeParse(item);
        if (!parsed.success) throw new RazorpayxError('RazorpayX list: an item that is not a payout', 200);
        return parsed.data;
      }),
    };
  }

  const gateway: PayoutGateway = { name: 'razorpayx', dispatch };
  return { gateway, fetchPayout, findByReference, listPayouts, call };
}
