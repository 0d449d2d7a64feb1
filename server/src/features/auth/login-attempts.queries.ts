import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { loginAttempts } from '../../db/schema';

/** The `address` of the row that counts an account's failures from every address. */
export const ANY_ADDRESS = '*';

export interface AttemptLimits {
  /** Failures of one (username, address) pair per `pairWindowMs`. */
  perPair: number;
  pairWindowMs: number;
  /** Failures of one username from anywhere per `accountWindowMs`. */
  perAccount: number;
  accountWindowMs: number;
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;

/**
 * Reserves one login attempt before its password is checked: the pair's counter first, then, only if
 * that one had room, the account's, in one statement. Each counter is an upsert that counts one more
 * only while its window has room (or has ended: then a new window starts with this attempt); ON
 * CONFLICT locks the row and re-checks the condition on its newest version, so parallel attempts are
 * counted one by one and never past the limit, on one instance or many. Answers which lock refused
 * the attempt, if one did.
 */
export async function reserveAttempt(
  db: Executor,
  input: { username: string; address: string; now: Date; limits: AttemptLimits },
): Promise<'ok' | 'pair' | 'account'> {
  const { username, address, now, limits } = input;
  const at = now.toISOString();
  const pairSince = new Date(now.getTime() - limits.pairWindowMs).toISOString();
  const accountSince = new Date(now.getTime() - limits.accountWindowMs).toISOString();
  const result = await db.execute(sql`
    with pair as (
      insert into ${loginAttempts} as c (username, address, window_start, failures)
      values (${username}, ${address}, ${at}::timestamptz, 1)
      on conflict (username, address) do update set
        failures = case when c.window_start <= ${pairSince}::timestamptz then 1 else c.failures + 1 end,
        window_start = case when c.window_start <= ${pairSince}::timestamptz then excluded.window_start else c.window_start end
      where c.window_start <= ${pairSince}::timestamptz or c.failures < ${limits.perPair}
      returning 1
    ), account as (
      insert into ${loginAttempts} as c (username, address, window_start, failures)
      select ${username}, ${ANY_ADDRESS}, ${at}::timestamptz, 1 where exists (select 1 from pair)
      on conflict (username, address) do update set
        failures = case when c.window_start <= ${accountSince}::timestamptz then 1 else c.failures + 1 end,
        window_start = case when c.window_start <= ${accountSince}::timestamptz then excluded.window_start else c.window_start end
      where c.window_start <= ${accountSince}::timestamptz or c.failures < ${limits.perAccount}
      returning 1
    )
    select (select count(*) from pair)::int as pair, (select count(*) from account)::int as account`);
  const [row] = rowsOf(result);
  if (Number(row?.pair) === 0) return 'pair';
  if (Number(row?.account) === 0) {
    // The pair counted an attempt that the account's lock then refused: give it back.
    await giveBack(db, username, address);
    return 'account';
  }
  return 'ok';
}

async function giveBack(db: Executor, username: string, address: string) {
  await db
    .update(loginAttempts)
    .set({ failures: sql`greatest(${loginAttempts.failures} - 1, 0)` })
    .where(and(eq(loginAttempts.username, username), eq(loginAttempts.address, address)));
}

/** When the window of a full counter ends (for the "try again in N min" answer). */
export async function windowStartOf(db: Executor, username: string, address: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ windowStart: loginAttempts.windowStart })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, username), eq(loginAttempts.address, address)))
    .limit(1);
  return row?.windowStart;
}

/**
 * A login succeeded: it gives back the attempt it reserved on both counters (it was no failure).
 * Failures counted before it stay until their window ends: resetting them here would let guesses
 * that arrived at the same moment as the right password through past the limit.
 */
export async function settleSuccess(db: Executor, username: string, address: string) {
  await db
    .update(loginAttempts)
    .set({ failures: sql`greatest(${loginAttempts.failures} - 1, 0)` })
    .where(and(eq(loginAttempts.username, username), inArray(loginAttempts.address, [address, ANY_ADDRESS])));
}

/** A new password (reset by code or by an operator): every lock on the account ends. */
export async function clearAttempts(db: Executor, username: string) {
  await db.delete(loginAttempts).where(eq(loginAttempts.username, username));
}

/** Counters whose window ended long ago; the jobs loop sweeps them. */
export async function sweepAttempts(db: Executor, before: Date) {
  await db.delete(loginAttempts).where(lt(loginAttempts.windowStart, before));
}
