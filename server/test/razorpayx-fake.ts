import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local RazorpayX API for tests (no network here), written from Razorpay's published pages, each
 * cited where its behaviour is built (docs/decisions/razorpayx-payouts.md lists them):
 * - auth: HTTP basic with the key id and secret (https://razorpay.com/docs/api/authentication);
 * - `POST /v1/payouts`, the composite form (fund_account + contact inline)
 *   (https://razorpay.com/docs/api/x/payout-composite/create/vpa and .../bank-account);
 * - `X-Payout-Idempotency` (https://razorpay.com/docs/api/x/payout-idempotency/make-request): required;
 *   4-36 of letters, digits, hyphens, underscores and space; "When retrying a request, the request body
 *   must be the same as the first request ... A different payload will be rejected as a BAD_REQUEST";
 *   the first answer is saved and returned for the same key;
 * - `GET /v1/payouts/:id` (https://razorpay.com/docs/api/x/payouts/fetch-with-id);
 * - `GET /v1/payouts?account_number=...&reference_id=...` answering `{entity: "collection", count, items}`
 *   (https://razorpay.com/docs/api/x/payouts/fetch-all; account_number is required);
 * - `POST /v1/payouts/:id/cancel`, only for a queued payout (https://razorpay.com/docs/api/x/payouts/cancel);
 * - queued payouts: `queue_if_low_balance` and a balance below the amount queue the payout; its life
 *   cycle is queued → processing → processed/reversed, or cancelled/failed
 *   (https://razorpay.com/docs/x/payouts/queued);
 * - errors: `{error: {code, description, source, step, reason, metadata, field}}`, e.g. the missing key's
 *   body on the idempotency page (https://razorpay.com/docs/errors/x/);
 * - webhooks: `{entity: "event", account_id, event, contains: ["payout"], payload: {payout: {entity}},
 *   created_at}` for the published events only (https://razorpay.com/docs/webhooks/payloads/x/), signed
 *   with `X-Razorpay-Signature` = hex HMAC-SHA256 of the raw body under the webhook secret
 *   (https://razorpay.com/docs/webhooks/validate-test).
 *
 * The fake is a small router (`route`), so other RazorpayX resources (contacts, fund accounts, their
 * validations) can be added by the tests that need them, sharing its auth, log, faults and signing.
 */
export interface FakeOptions {
  keyId: string;
  keySecret: string;
  accountNumber: string;
  webhookSecret: string;
  /** Where webhooks are POSTed (a listening server); tests may pass their own sender instead. */
  webhookUrl?: string;
  /** The clock payouts are created by (`created_at`), in ms: the app's test clock; the wall clock by default. */
  clock?: () => number;
  /**
   * Most API calls in any one second before the fake answers 429, as RazorpayX's rate limiter does;
   * RazorpayX asks for "5-10 transactions per sec" (https://razorpay.com/docs/razorpayx/best-practices/),
   * so 10 is its documented ceiling. Unset: no limit (tests of other behaviour make calls in bursts).
   */
  ratePerSecond?: number;
}

export type Fault = 'server_error' | 'gateway_error' | 'rate_limited' | 'timeout' | 'timeout_after_create';

export interface FakePayout {
  id: string;
  entity: 'payout';
  fund_account_id: string;
  fund_account: Record<string, unknown>;
  amount: number;
  currency: string;
  notes: Record<string, unknown>;
  fees: number;
  tax: number;
  status: string;
  utr: string | null;
  mode: string;
  purpose: string;
  reference_id: string | null;
  narration: string | null;
  batch_id: null;
  status_details: { description: string; source: string; reason: string } | null;
  created_at: number;
  fee_type: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorized: boolean;
  idempotencyKey: string | undefined;
  body: unknown;
  status: number;
  /** The open answer (a route may leave it hanging to fake a timeout). */
  response: ServerResponse;
}

export interface Delivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}
export type Sender = (delivery: Delivery) => Promise<{ status: number; body: string }>;

/**
 * The payout webhook events RazorpayX publishes (https://razorpay.com/docs/webhooks/payloads/x/). There
 * is no `payout.cancelled`: a cancelled queued payout is a `payout.updated`.
 */
export const PAYOUT_WEBHOOK_EVENTS = [
  'payout.pending',
  'payout.rejected',
  'payout.queued',
  'payout.initiated',
  'payout.processed',
  'payout.updated',
  'payout.reversed',
  'payout.failed',
] as const;

/** `X-Razorpay-Signature`: the hex HMAC-SHA256 of the raw body under the webhook secret (any RazorpayX webhook). */
export function signRazorpayWebhook(body: string | Buffer, secret: string) {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** A request the router hands to a route: its path parameters, query, body (parsed) and raw text. */
export interface FakeRequest {
  request: IncomingMessage;
  params: string[];
  query: URLSearchParams;
  raw: string;
  entry: LoggedRequest;
}
export type FakeRoute = (req: FakeRequest, reply: (status: number, body: unknown) => void) => unknown;

const PURPOSES = ['refund', 'cashback', 'payout', 'salary', 'utility bill', 'vendor bill'];
const MODES = ['UPI', 'IMPS', 'NEFT', 'RTGS'];
const IDEMPOTENCY_HEADER = 'X-Payout-Idempotency';
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_\- ]{4,36}$/;

const errorBody = (
  code: string,
  description: string,
  extra: { field?: string; source?: string; reason?: string; step?: string } = {},
) => ({
  error: {
    code,
    description,
    source: extra.source ?? 'NA',
    step: extra.step ?? 'NA',
    reason: extra.reason ?? 'NA',
    metadata: {},
    ...(extra.field ? { field: extra.field } : {}),
  },
});
const invalid = (description: string, field: string) =>
  errorBody('BAD_REQUEST_ERROR', description, { field, source: 'business', reason: 'input_validation_failed' });

/** Key-order independent JSON, so "the same body" means the same content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const newId = (prefix: string) =>
  `${prefix}_${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x').slice(0, 14)}`;

/** Checks a composite payout body the way RazorpayX documents its fields; the first problem, or undefined. */
function problemOf(body: Record<string, unknown>, accountNumber: string) {
  if (body.account_number !== accountNumber) return invalid('The account number is invalid.', 'account_number');
  if (!Number.isInteger(body.amount) || (body.amount as number) < 100) {
    return invalid('The amount must be atleast INR 1.00', 'amount');
  }
  if (body.currency !== 'INR') return invalid('The currency must be INR.', 'currency');
  if (!MODES.includes(body.mode as string)) return invalid('The selected mode is invalid.', 'mode');
  if (!PURPOSES.includes(body.purpose as string)) return invalid('The selected purpose is invalid.', 'purpose');
  if (typeof body.reference_id === 'string' && body.reference_id.length > 40) {
    return invalid('The reference id may not be greater than 40 characters.', 'reference_id');
  }
  if (typeof body.narration === 'string' && !/^[A-Za-z0-9 ]{0,30}$/.test(body.narration)) {
    return invalid('The narration may only contain letters, digits and spaces, at most 30.', 'narration');
  }
  const fund = body.fund_account as Record<string, unknown> | undefined;
  if (!fund || typeof fund !== 'object') return invalid('The fund account field is required.', 'fund_account');
  const contact = fund.contact as Record<string, unknown> | undefined;
  if (!contact || typeof contact.name !== 'string' || contact.name.trim().length < 3) {
    return invalid('The contact name field is required.', 'fund_account.contact.name');
  }
  // The contact's name rules (Create Contact), https://razorpay.com/docs/api/x/contacts/create
  if (!razorpayxNameOk(contact.name, 50)) return invalid('The name field is invalid.', 'fund_account.contact.name');
  if (fund.account_type === 'vpa') {
    const address = (fund.vpa as { address?: unknown } | undefined)?.address;
    if (typeof address !== 'string' || !/^[\w.-]{2,256}@[A-Za-z][\w.-]{1,64}$/.test(address)) {
      return invalid('Invalid VPA. Please enter a valid Virtual Payment Address', 'fund_account.vpa.address');
    }
    if (body.mode !== 'UPI') return invalid('The mode must be UPI for a vpa fund account.', 'mode');
  } else if (fund.account_type === 'bank_account') {
    const bank = fund.bank_account as Record<string, unknown> | undefined;
    if (!bank || typeof bank.name !== 'string' || bank.name.length < 3) {
      return invalid('The name field is required.', 'fund_account.bank_account.name');
    }
    // https://razorpay.com/docs/api/x/fund-accounts/create/bank-account: 3-120, the contact's characters and end rule
    if (!razorpayxNameOk(bank.name, 120))
      return invalid('The name field is invalid.', 'fund_account.bank_account.name');
    if (typeof bank.ifsc !== 'string' || !/^[A-Z]{4}0[A-Z0-9]{6}$/.test(bank.ifsc)) {
      return invalid('The ifsc must be 11 characters.', 'fund_account.bank_account.ifsc');
    }
    if (typeof bank.account_number !== 'string' || !/^[A-Za-z0-9]{5,35}$/.test(bank.account_number)) {
      return invalid('The account number format is invalid.', 'fund_account.bank_account.account_number');
    }
    if (body.mode === 'UPI') return invalid('The mode UPI is not allowed for a bank account.', 'mode');
  } else {
    return invalid('The selected account type is invalid.', 'fund_account.account_type');
  }
  return undefined;
}

/**
 * A contact's or bank account holder's name as RazorpayX takes it: Create Contact
 * (https://razorpay.com/docs/api/x/contacts/create) "A minimum of 3 characters and a maximum of 50
 * characters ... Name cannot end with a special character, except . Supported characters: a-z, A-Z,
 * 0-9, space, ' , - , _ , / , ( , ) and ."; Create Fund Account, bank account
 * (https://razorpay.com/docs/api/x/fund-accounts/create/bank-account): the same rules, 3 to 120.
 * Razorpay's validator also wants a letter or digit first.
 */
export function razorpayxNameOk(name: string, max: number) {
  return name.length >= 3 && name.length <= max && /^[A-Za-z0-9](?:[A-Za-z0-9 '\-_/().]*[A-Za-z0-9.])?$/.test(name);
}

export async function startRazorpayxFake(options: FakeOptions) {
  const payouts = new Map<string, FakePayout>();
  /** Idempotency key → the first request's body and the answer it got. */
  const idempotency = new Map<string, { body: string; status: number; answer: unknown }>();
  const requests: LoggedRequest[] = [];
  const faults: { route: 'create' | 'fetch'; fault: Fault }[] = [];
  const refusals: { description: string; field: string }[] = [];
  const sockets = new Set<Socket>();
  const clock = options.clock ?? Date.now;
  const ratePerSecond = options.ratePerSecond ?? Number.POSITIVE_INFINITY;
  /** Wall-clock times of the calls of the last second, and the 429s answered. */
  const recent: number[] = [];
  let rateLimited = 0;
  const hanging = new Set<ServerResponse>();
  let created = 0;

  let webhookUrl = options.webhookUrl ?? '';
  const expectedAuth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const authorized = (request: IncomingMessage) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(expectedAuth);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  function takeFault(route: 'create' | 'fetch') {
    const index = faults.findIndex((f) => f.route === route);
    if (index < 0) return undefined;
    return faults.splice(index, 1)[0]?.fault;
  }

  function answerFault(response: ServerResponse, fault: Fault) {
    if (fault === 'timeout' || fault === 'timeout_after_create') {
      hanging.add(response);
      return;
    }
    if (fault === 'rate_limited') {
      return send(
        response,
        429,
        errorBody('BAD_REQUEST_ERROR', 'Too many requests', { reason: 'rate_limit_exceeded' }),
      );
    }
    if (fault === 'gateway_error') {
      return send(
        response,
        502,
        errorBody('GATEWAY_ERROR', 'Payment processing failed due to error at bank or wallet gateway'),
      );
    }
    return send(
      response,
      500,
      errorBody('SERVER_ERROR', 'The server encountered an error. The incident has been reported to admins.'),
    );
  }

  function send(response: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
    return status;
  }

  /** Funds in the business account (paise); a payout above it is queued when `queue_if_low_balance` is true. */
  let balance = Number.POSITIVE_INFINITY;

  /**
   * A payout entity as the fetch page shows it, field by field
   * (https://razorpay.com/docs/api/x/payouts/fetch-with-id): id, entity, fund_account_id, amount,
   * currency, notes, fees, tax, status, purpose, utr, mode, reference_id, narration, batch_id,
   * status_details {description, source, reason}, created_at, fee_type; the composite answer adds the
   * fund account with its contact (https://razorpay.com/docs/api/x/payout-composite/create/vpa).
   */
  function createPayout(body: Record<string, unknown>): FakePayout {
    created += 1;
    const fund = body.fund_account as Record<string, unknown>;
    const contact = fund.contact as Record<string, unknown>;
    const amount = body.amount as number;
    // https://razorpay.com/docs/x/payouts/queued: "When you do not have sufficient balance ... we queue the payout".
    const queued = amount > balance && body.queue_if_low_balance === true;
    if (!queued && Number.isFinite(balance)) balance -= amount;
    const payout: FakePayout = {
      id: newId('pout'),
      entity: 'payout',
      fund_account_id: newId('fa'),
      fund_account: { ...fund, id: newId('fa'), entity: 'fund_account', contact: { ...contact, id: newId('cont') } },
      amount,
      currency: 'INR',
      notes: (body.notes as Record<string, unknown>) ?? {},
      fees: 0,
      tax: 0,
      status: queued ? 'queued' : 'processing',
      utr: null,
      mode: body.mode as string,
      purpose: body.purpose as string,
      reference_id: (body.reference_id as string) ?? null,
      narration: (body.narration as string) ?? null,
      batch_id: null,
      status_details: queued
        ? {
            description: 'Payout is queued as there is insufficient balance',
            source: 'business',
            reason: 'low_balance',
          }
        : {
            description: 'Payout is being processed by the beneficiary bank',
            source: 'beneficiary_bank',
            reason: 'payout_processing',
          },
      created_at: Math.floor(clock() / 1000),
      fee_type: '',
    };
    payouts.set(payout.id, payout);
    return payout;
  }

  const table: { method: string; pattern: RegExp; handler: FakeRoute }[] = [];
  /** Adds a route (method, a path pattern whose groups are its parameters) to the fake. */
  function route(method: string, pattern: RegExp, handler: FakeRoute) {
    table.push({ method, pattern, handler });
  }

  route('POST', /^\/v1\/payouts$/, ({ request, raw, entry }, reply) => {
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return reply(400, invalid('The request body must be JSON', 'content-type'));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return reply(400, invalid('The request body is not valid JSON', 'body'));
    }
    entry.body = body;
    // The body the idempotency page shows for a request without the header.
    if (entry.idempotencyKey === undefined) {
      return reply(
        400,
        invalid('Idempotency key is missing. Include idempotency header and key in the request.', IDEMPOTENCY_HEADER),
      );
    }
    if (!IDEMPOTENCY_KEY.test(entry.idempotencyKey)) {
      return reply(400, invalid('The idempotency key format is invalid.', IDEMPOTENCY_HEADER));
    }
    const fault = takeFault('create');
    if (fault && fault !== 'timeout_after_create') {
      entry.status = -1;
      return answerFault(entry.response, fault);
    }
    // A refusal injected by a test comes before the saved answer (a validation the retry fails, such
    // as a changed account number): the adapter must then ask by reference before any refund.
    const refusal = refusals.shift();
    if (refusal) return reply(400, invalid(refusal.description, refusal.field));
    const seen = idempotency.get(entry.idempotencyKey);
    if (seen) {
      if (seen.body !== canonical(body)) {
        return reply(400, invalid('Different request body sent for the same Idempotency Header', IDEMPOTENCY_HEADER));
      }
      if (fault === 'timeout_after_create') return answerFault(entry.response, fault);
      const answer = seen.status === 200 ? payouts.get((seen.answer as FakePayout).id) : seen.answer;
      // A payout the fake was told to forget is unknown: the key no longer maps to it.
      if (answer) return reply(seen.status, answer);
      idempotency.delete(entry.idempotencyKey);
    }
    const problem = problemOf(body, options.accountNumber);
    if (problem) {
      idempotency.set(entry.idempotencyKey, { body: canonical(body), status: 400, answer: problem });
      return reply(400, problem);
    }
    const payout = createPayout(body);
    idempotency.set(entry.idempotencyKey, { body: canonical(body), status: 200, answer: payout });
    if (fault === 'timeout_after_create') {
      entry.status = -1;
      return answerFault(entry.response, fault);
    }
    return reply(200, payout);
  });

  /**
   * https://razorpay.com/docs/api/x/payouts/fetch-all: `account_number` required; `reference_id` filters;
   * pagination by https://razorpay.com/docs/api/pagination: `from` and `to` (unix seconds, "after which"
   * and "before which" the payouts were created), `count` (default 10; at most 100, per the fetch-all
   * page) and `skip` (default 0); newest first. The answer: `{entity: "collection", count, items}`, the
   * page's items and their number.
   */
  route('GET', /^\/v1\/payouts$/, ({ query, entry }, reply) => {
    const fault = takeFault('fetch');
    if (fault) {
      entry.status = -1;
      return answerFault(entry.response, fault);
    }
    const account = query.get('account_number');
    if (!account) return reply(400, invalid('The account number field is required.', 'account_number'));
    if (account !== options.accountNumber)
      return reply(400, invalid('The account number is invalid.', 'account_number'));
    const integer = (name: string, fallback: number) => {
      const raw = query.get(name);
      return raw === null ? fallback : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    };
    const count = integer('count', 10);
    const skip = integer('skip', 0);
    const from = integer('from', 0);
    const to = integer('to', Number.MAX_SAFE_INTEGER);
    for (const [name, value] of Object.entries({ count, skip, from, to })) {
      if (Number.isNaN(value)) return reply(400, invalid(`The ${name} must be an integer.`, name));
    }
    if (count < 1 || count > 100) return reply(400, invalid('The count must be between 1 and 100.', 'count'));
    const reference = query.get('reference_id');
    const items = [...payouts.values()]
      .filter((p) => reference === null || p.reference_id === reference)
      .filter((p) => p.created_at >= from && p.created_at < to)
      .sort((x, y) => y.created_at - x.created_at || (x.id < y.id ? 1 : -1))
      .slice(skip, skip + count);
    return reply(200, { entity: 'collection', count: items.length, items });
  });

  route('GET', /^\/v1\/payouts\/([^/]+)$/, ({ params, entry }, reply) => {
    const fault = takeFault('fetch');
    if (fault) {
      entry.status = -1;
      return answerFault(entry.response, fault);
    }
    const payout = payouts.get(decodeURIComponent(params[0] ?? ''));
    if (!payout) return reply(400, invalid('The id provided does not exist', 'id'));
    return reply(200, payout);
  });

  // https://razorpay.com/docs/api/x/payouts/cancel: "You can only cancel payouts that are in the queued state."
  route('POST', /^\/v1\/payouts\/([^/]+)\/cancel$/, ({ params }, reply) => {
    const payout = payouts.get(decodeURIComponent(params[0] ?? ''));
    if (!payout) return reply(400, invalid('The id provided does not exist', 'id'));
    if (payout.status !== 'queued') {
      return reply(400, invalid('Only queued payouts can be cancelled', 'id'));
    }
    return reply(200, settleTo(payout, 'cancelled'));
  });

  async function handle(request: IncomingMessage, response: ServerResponse, raw: string) {
    const url = new URL(request.url ?? '/', 'http://fake');
    const key = request.headers['x-payout-idempotency'];
    const entry: LoggedRequest = {
      method: request.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorized: authorized(request),
      idempotencyKey: typeof key === 'string' ? key : undefined,
      body: undefined,
      status: 0,
      response,
    };
    requests.push(entry);
    const reply = (status: number, body: unknown) => {
      entry.status = send(response, status, body);
    };
    if (!entry.authorized) {
      return reply(401, errorBody('BAD_REQUEST_ERROR', 'The api key provided is invalid'));
    }
    // The rate limiter (https://razorpay.com/docs/api/pagination: "watch for HTTP status code 429"), over
    // the last second of wall-clock time. The pages show no 429 body; it has the documented error shape
    // (https://razorpay.com/docs/errors).
    const at = Date.now();
    while (recent.length > 0 && (recent[0] as number) <= at - 1000) recent.shift();
    if (recent.length >= ratePerSecond) {
      rateLimited += 1;
      return reply(429, errorBody('BAD_REQUEST_ERROR', 'Too many requests', { reason: 'rate_limit_exceeded' }));
    }
    recent.push(at);
    for (const { method, pattern, handler } of table) {
      const match = pattern.exec(url.pathname);
      if (method !== request.method || !match) continue;
      return handler({ request, params: match.slice(1), query: url.searchParams, raw, entry }, reply);
    }
    return reply(404, errorBody('BAD_REQUEST_ERROR', 'The requested URL was not found on the server.'));
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(request, response, Buffer.concat(chunks).toString('utf8')).catch((error) => {
        response.writeHead(500);
        response.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fetchSender: Sender = async (delivery) => {
    const response = await fetch(delivery.url, { method: 'POST', headers: delivery.headers, body: delivery.body });
    return { status: response.status, body: await response.text() };
  };

  /** A signed webhook for the payout as it is now (or as `snapshot` was), ready to send. */
  function webhook(event: string, payout: FakePayout, sign: { secret?: string; signature?: string } = {}): Delivery {
    if (!(PAYOUT_WEBHOOK_EVENTS as readonly string[]).includes(event)) {
      throw new Error(`fake: RazorpayX publishes no ${event} event (https://razorpay.com/docs/webhooks/payloads/x/)`);
    }
    // The envelope of every sample on https://razorpay.com/docs/webhooks/payloads/x/.
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_KamaiFake0001',
      event,
      contains: ['payout'],
      payload: { payout: { entity: payout } },
      created_at: Math.floor(Date.now() / 1000),
    });
    const signature = sign.signature ?? signRazorpayWebhook(body, sign.secret ?? options.webhookSecret);
    return {
      url: webhookUrl,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signature,
        'x-razorpay-event-id': `evt_${createHash('sha256').update(body).digest('hex').slice(0, 14)}`,
      },
      body,
    };
  }

  /** Moves a payout to `status` with its documented status details; a snapshot for webhooks. */
  function settleTo(payout: FakePayout, status: string, details: { utr?: string | null; description?: string } = {}) {
    payout.status = status;
    if (status === 'processed') {
      payout.utr = details.utr === undefined ? String(100_000_000_000 + Math.floor(Math.random() * 1e11)) : details.utr;
    }
    const base = STATUS_DETAILS[status];
    const description = details.description ? { description: details.description } : {};
    payout.status_details = base ? { ...base, ...description } : null;
    return structuredClone(payout);
  }

  const STATUS_DETAILS: Record<string, { description: string; source: string; reason: string }> = {
    processed: {
      description: 'Payout is processed and the money has been credited into the beneficiaries account',
      source: 'beneficiary_bank',
      reason: 'payout_processed',
    },
    failed: {
      description: 'Payout failed as the beneficiary account is closed',
      source: 'beneficiary_bank',
      reason: 'beneficiary_account_closed',
    },
    rejected: { description: 'Payout was rejected by the approver', source: 'business', reason: 'rejected' },
    cancelled: { description: 'Payout was cancelled', source: 'business', reason: 'cancelled' },
    reversed: {
      description: 'Payout reversed as the beneficiary bank returned the amount',
      source: 'beneficiary_bank',
      reason: 'beneficiary_bank_reversed',
    },
  };

  return {
    url,
    payouts,
    requests,
    /** Where webhooks go (known once the server under test listens). */
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** How many payouts were really created (an idempotent replay creates none). */
    get created() {
      return created;
    },
    /** How many calls the rate limiter refused with 429. */
    get rateLimited() {
      return rateLimited;
    },
    /**
     * Adds payouts RazorpayX holds that this fake did not create through the API (the dashboard's, another
     * installation's on the same account), each a copy of `like` with its own id, reference and time.
     */
    seed(like: Partial<FakePayout> & { reference_id: string | null; created_at: number; amount: number }) {
      const payout: FakePayout = {
        id: newId('pout'),
        entity: 'payout',
        fund_account_id: newId('fa'),
        fund_account: {
          id: newId('fa'),
          entity: 'fund_account',
          account_type: 'vpa',
          vpa: { address: 'other@okaxis' },
        },
        currency: 'INR',
        notes: {},
        fees: 0,
        tax: 0,
        status: 'processed',
        utr: String(100_000_000_000 + Math.floor(Math.random() * 1e11)),
        mode: 'UPI',
        purpose: 'payout',
        narration: null,
        batch_id: null,
        status_details: null,
        fee_type: '',
        ...like,
      };
      payouts.set(payout.id, payout);
      return payout;
    },
    /** The next `count` calls to `route` fail this way. */
    failNext(fault: Fault, count = 1, route: 'create' | 'fetch' = 'create') {
      for (let i = 0; i < count; i++) faults.push({ route, fault });
    },
    /** The next create is refused with a 400 BAD_REQUEST_ERROR (e.g. the bank's VPA check). */
    refuseNext(description: string, field: string) {
      refusals.push({ description, field });
    },
    /** RazorpayX loses the payout: fetching it answers "does not exist", its idempotency key is free. */
    forget(id: string) {
      payouts.delete(id);
    },
    byReference(referenceId: string) {
      return [...payouts.values()].filter((p) => p.reference_id === referenceId);
    },
    /** The payouts whose notes name this withdrawal (Kamai sends `notes.withdrawal_id`). */
    byWithdrawal(withdrawalId: number) {
      return [...payouts.values()].filter((p) => p.notes.withdrawal_id === String(withdrawalId));
    },
    /**
     * Moves a payout to `status` (processed: with a UTR, unless `utr: null`, which comes later in
     * `payout.updated`) and answers a snapshot for webhooks.
     */
    settle(id: string, status: string, details: { utr?: string | null; description?: string } = {}): FakePayout {
      const payout = payouts.get(id);
      if (!payout) throw new Error(`fake: no payout ${id}`);
      return settleTo(payout, status, details);
    },
    /** The bank's UTR arrives for a processed payout (RazorpayX then sends `payout.updated`). */
    setUtr(id: string, utr: string): FakePayout {
      const payout = payouts.get(id);
      if (!payout) throw new Error(`fake: no payout ${id}`);
      payout.utr = utr;
      return structuredClone(payout);
    },
    /** RazorpayX's fees and tax on a payout (paise; the fetch-all sample shows 590 and 90). */
    setFees(id: string, fees: number, tax: number) {
      const payout = payouts.get(id);
      if (!payout) throw new Error(`fake: no payout ${id}`);
      payout.fees = fees;
      payout.tax = tax;
    },
    /** The business account's balance in paise (payouts above it are queued); unlimited by default. */
    setBalance(paise: number) {
      balance = paise;
    },
    /** Adds a route (other RazorpayX resources) sharing the fake's auth, request log and faults. */
    route,
    webhook,
    /** Sends a signed webhook (over HTTP to `webhookUrl`, or through `via`). */
    async deliver(
      event: string,
      payout: FakePayout,
      extra: { secret?: string; signature?: string; via?: Sender } = {},
    ) {
      return (extra.via ?? fetchSender)(webhook(event, payout, extra));
    },
    async close() {
      for (const response of hanging) response.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type RazorpayxFake = Awaited<ReturnType<typeof startRazorpayxFake>>;
