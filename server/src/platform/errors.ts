import { formatMoneyVars, type MessageKey, statusOf } from '@kamai/contract';

/** The one error class services throw: a catalogue key, optional data for the envelope and the message. */
export class AppError extends Error {
  readonly status: number;
  /** How long the refusal was held back on purpose before it was thrown (ms); the request log discounts it. */
  delayedMs = 0;
  constructor(
    readonly key: MessageKey,
    readonly data: Record<string, unknown> = {},
  ) {
    super(key);
    this.status = statusOf(key);
  }
}

/** A PostgreSQL unique violation (23505), however deeply the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Socket errors and SQLSTATEs that mean "the database is not there right now", not "this request is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '25006', // read_only_sql_transaction: the host is (now) a standby or being demoted; a failover is under way
  '57P01', // admin_shutdown: the backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '40001', // serialization failure, still failing after the bounded retries
  '40P01', // deadlock, likewise
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|connect ECONNREFUSED/i;

/**
 * The database could not be reached, dropped the connection, or kept aborting the transaction: the
 * request may succeed if tried again shortly, so it answers 503 rather than 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  for (let e = queue.shift(); e && !seen.has(e); e = queue.shift()) {
    seen.add(e);
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (cause) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

/** SQLSTATE of a refusal raised by a database function (db/functions kamai_refuse): message = key, detail = vars. */
export const REFUSAL_SQLSTATE = 'KMAPP';

/**
 * The AppError a database function raised as a refusal (SQLSTATE KMAPP, the catalogue key as its
 * message and the message's variables as JSON in its detail), however deeply the driver wrapped it;
 * undefined for any other error.
 */
export function refusalOf(error: unknown): AppError | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, message, detail } = e as { code?: unknown; message?: unknown; detail?: unknown };
    if (code === REFUSAL_SQLSTATE && typeof message === 'string') {
      const vars = typeof detail === 'string' && detail !== '' ? (JSON.parse(detail) as Record<string, unknown>) : {};
      // Money comes as paise ({paise}); the API shows it as rupee strings.
      return new AppError(message as MessageKey, formatMoneyVars(vars));
    }
  }
  return undefined;
}
