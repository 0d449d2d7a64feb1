import type { Db } from './types';

/** Attempts of one transaction that PostgreSQL aborted as a serialization failure or a deadlock victim. */
export const TX_MAX_ATTEMPTS = 5;
const RETRYABLE = new Set(['40001', '40P01']);

/** SQLSTATE of an error, however deeply the driver (and Drizzle) wrapped it. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A serialization failure (40001) or deadlock (40P01): the whole transaction may simply run again. */
export function isRetryable(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && RETRYABLE.has(state);
}

/** Read at each retry, so a listener can be attached after the database is opened. */
export interface RetryOptions {
  attempts?: number;
  /** Told of each retry (metrics, logs). */
  onRetry?: (info: { attempt: number; sqlState: string | undefined }) => void;
}

/**
 * Makes `db.transaction(fn)` run `fn` again, up to `attempts` times in all, when PostgreSQL aborts the
 * transaction as a serialization failure or a deadlock victim, with a short random back-off so the
 * contenders do not meet again. Everything `fn` did was rolled back with the aborted attempt, so a
 * callback that only talks to the database through `tx` is safe to re-run. Nested transactions
 * (savepoints, `tx.transaction`) are not retried on their own: the outermost one is.
 */
export function withTransactionRetry<D extends Db>(db: D, options: RetryOptions = {}): D {
  const once: Db['transaction'] = db.transaction.bind(db);
  const retrying: Db['transaction'] = async (fn, config) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(fn, config);
      } catch (error) {
        if (attempt >= (options.attempts ?? TX_MAX_ATTEMPTS) || !isRetryable(error)) throw error;
        options.onRetry?.({ attempt, sqlState: sqlStateOf(error) });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
      }
    }
  };
  // The driver's own method is replaced on this instance only: every service's `db.transaction` retries.
  (db as Db).transaction = retrying;
  return db;
}
