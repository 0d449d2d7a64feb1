import type { LedgerInvariants, PlatformAccountKind, PostingRef, PostingType, UserAccountKind } from '@kamai/contract';
import type { Executor, Tx } from '../../db/client';
import { sqlStateOf } from '../../db/transaction';
import { AppError } from '../../platform/errors';
import * as q from './wallet.queries';

export type AccountRef =
  | { accountId: number }
  | { userId: number; kind: UserAccountKind }
  | { kind: PlatformAccountKind };

export interface PostingInput {
  type: PostingType;
  /** Names the cause (`task:3:user:42`, `withdrawal:17:hold`); a second post with it changes nothing. */
  idempotencyKey: string;
  ref?: PostingRef;
  /** Signed paise; they must sum to zero. */
  entries: { account: AccountRef; amount: bigint }[];
}

export interface PostingResult {
  postingId: number;
  /** False when the idempotency key had already been posted. */
  created: boolean;
}

/** A programming error, not a user's: the caller built a posting that cannot be right. */
export class InvalidPostingError extends Error {}

/** `ledger_post`'s SQLSTATE for a posting that cannot be right (db/functions/20_ledger_post.sql). */
const INVALID_POSTING_SQLSTATE = 'KMPST';

function lineOf(entry: PostingInput['entries'][number]): q.PostingLine {
  const { account, amount } = entry;
  if ('accountId' in account) return { accountId: account.accountId, userId: null, kind: null, amount };
  if ('userId' in account) return { accountId: null, userId: account.userId, kind: account.kind, amount };
  return { accountId: null, userId: null, kind: account.kind, amount };
}

/**
 * The only way money moves (docs/design.md "Money rules"), inside the caller's transaction, in one statement: the
 * database's `ledger_post` (db/functions/20_ledger_post.sql holds the rules, so a withdrawal's own function posts by
 * the same ones) locks the user accounts it touches in ascending id order, refuses to take any below
 * zero, writes the posting and its entries, and updates their cached balances. Platform accounts are
 * read, never locked or updated. A posting that would go below zero throws insufficient_balance and
 * leaves the transaction usable (nothing was written); one that cannot be right (entries not summing
 * to zero, an unknown account) throws InvalidPostingError.
 */
export async function post(tx: Tx, input: PostingInput): Promise<PostingResult> {
  let result: Awaited<ReturnType<typeof q.callLedgerPost>>;
  try {
    result = await q.callLedgerPost(
      tx,
      { type: input.type, idempotencyKey: input.idempotencyKey, ref: input.ref ?? {} },
      input.entries.map(lineOf),
    );
  } catch (error) {
    if (sqlStateOf(error) === INVALID_POSTING_SQLSTATE) {
      throw new InvalidPostingError(messageOf(error) ?? `posting ${input.idempotencyKey}`);
    }
    throw error;
  }
  if (result.postingId === undefined) throw new AppError('insufficient_balance');
  return { postingId: result.postingId, created: result.created };
}

/** The innermost message of a driver error (drizzle wraps it with the query's text). */
function messageOf(error: unknown): string | undefined {
  let message: string | undefined;
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (typeof (e as { message?: unknown }).message === 'string') message = (e as { message: string }).message;
  }
  return message;
}

/**
 * Locks the user's wallet row (FOR UPDATE) for a check-then-post in the caller's transaction and
 * answers its balance: checks made under this lock (a withdrawal's daily limits) cannot race.
 */
export async function lockWallet(tx: Tx, userId: number): Promise<bigint> {
  let balance = await q.lockUserAccount(tx, userId, 'wallet');
  if (balance === undefined) {
    await q.createUserAccount(tx, userId, 'wallet');
    balance = await q.lockUserAccount(tx, userId, 'wallet');
  }
  if (balance === undefined) throw new InvalidPostingError(`wallet of user ${userId} vanished`);
  return balance;
}

/** The ledger's invariants (docs/design.md "Money rules"), including the withdrawal-hold rule. */
export async function checkLedger(db: Executor): Promise<LedgerInvariants> {
  const problems: LedgerInvariants['problems'] = [];
  for (const p of await q.unbalancedPostings(db)) {
    problems.push({
      rule: 'posting_unbalanced',
      postingId: p.id,
      accountId: null,
      detail: `${p.count} entries summing to ${p.total} paise`,
    });
  }
  for (const a of await q.mismatchedBalances(db)) {
    problems.push({
      rule: 'balance_mismatch',
      postingId: null,
      accountId: a.id,
      detail: `cached balance ${a.balance} paise, entries sum to ${a.total} paise`,
    });
  }
  for (const a of await q.mismatchedBalanceAfter(db)) {
    problems.push({
      rule: 'balance_after_mismatch',
      postingId: null,
      accountId: a.id,
      detail: `cached balance ${a.balance} paise, newest entry's balance_after ${a.after} paise`,
    });
  }
  for (const a of await q.negativeBalances(db)) {
    problems.push({ rule: 'negative_balance', postingId: null, accountId: a.id, detail: `balance ${a.balance} paise` });
  }
  for (const h of await q.mismatchedHolds(db)) {
    problems.push({
      rule: 'hold_mismatch',
      postingId: null,
      accountId: h.accountId,
      detail: `user ${h.userId} holds ${h.held} paise, open withdrawals sum to ${h.open} paise`,
    });
  }
  return { ok: problems.length === 0, problems };
}
