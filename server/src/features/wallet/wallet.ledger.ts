import type { LedgerCheck, PlatformAccountKind, PostingRef, PostingType, UserAccountKind } from '@kamai/contract';
import type { Executor, Tx } from '../../db/client';
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

function keyOf(account: AccountRef): string {
  if ('accountId' in account) return `id:${account.accountId}`;
  if ('userId' in account) return `user:${account.userId}:${account.kind}`;
  return `platform:${account.kind}`;
}

/**
 * The posting's accounts, user accounts locked in ascending id order, in one statement; a user's
 * account of a kind it does not have yet (a hold, at the first withdrawal) is created, then read again.
 */
async function lockNamed(tx: Tx, refs: AccountRef[]): Promise<Map<string, q.LockedAccount>> {
  const names = {
    ids: refs.flatMap((r) => ('accountId' in r ? [r.accountId] : [])),
    owned: refs.flatMap((r) => ('userId' in r ? [{ userId: r.userId, kind: r.kind }] : [])),
    platform: refs.flatMap((r) => (!('accountId' in r) && !('userId' in r) ? [r.kind] : [])),
  };
  const find = (rows: q.LockedAccount[]) => {
    const found = new Map<string, q.LockedAccount>();
    for (const row of rows) {
      found.set(`id:${row.id}`, row);
      found.set(row.userId === null ? `platform:${row.kind}` : `user:${row.userId}:${row.kind}`, row);
    }
    return found;
  };
  let found = find(await q.lockAccountsFor(tx, names));
  const missing = names.owned.filter((o) => !found.has(`user:${o.userId}:${o.kind}`));
  if (missing.length > 0) {
    for (const o of missing) await q.createUserAccount(tx, o.userId, o.kind);
    found = find(await q.lockAccountsFor(tx, names));
  }
  for (const ref of refs) {
    if (!found.has(keyOf(ref))) throw new InvalidPostingError(`no account ${keyOf(ref)}`);
  }
  return found;
}

/**
 * The only way money moves (DESIGN.md §6), inside the caller's transaction: locks the user accounts
 * it touches in ascending id order, refuses to take any below zero, writes the posting and its
 * entries, and updates their cached balances. Platform accounts are read, never locked or updated.
 * Two round trips (lock, then one statement writing posting, entries and balances; wallet.queries.ts),
 * and a third only when a user account must be created or the key was posted before.
 */
export async function post(tx: Tx, input: PostingInput): Promise<PostingResult> {
  if (input.entries.length < 2) throw new InvalidPostingError('a posting needs at least two entries');
  if (input.entries.some((e) => e.amount === 0n)) throw new InvalidPostingError('an entry of zero');
  const total = input.entries.reduce((sum, e) => sum + e.amount, 0n);
  if (total !== 0n) throw new InvalidPostingError(`entries of ${input.idempotencyKey} sum to ${total}, not 0`);

  const accounts = await lockNamed(
    tx,
    input.entries.map((e) => e.account),
  );
  const running = new Map<number, bigint>();
  const values = input.entries.map((entry) => {
    const row = accounts.get(keyOf(entry.account)) as q.LockedAccount;
    const accountId = row.id;
    if (row.userId === null) return { accountId, amount: entry.amount, balanceAfter: null };
    const after = (running.get(accountId) ?? row.balance) + entry.amount;
    running.set(accountId, after);
    return { accountId, amount: entry.amount, balanceAfter: after };
  });
  const short = values.some((v) => v.balanceAfter !== null && v.balanceAfter < 0n);

  // Checked before the posting row is written, so a caller that catches the refusal leaves no trace;
  // a replay of a posting made earlier still answers "already posted" whatever the balance is now.
  if (short) {
    const existing = await q.findPostingByKey(tx, input.idempotencyKey);
    if (existing) return { postingId: existing.id, created: false };
    throw new AppError('insufficient_balance');
  }
  const postingId = await q.writePosting(
    tx,
    { type: input.type, idempotencyKey: input.idempotencyKey, ref: input.ref ?? {} },
    values,
    [...running].map(([accountId, balance]) => ({ accountId, balance })),
  );
  if (postingId === undefined) {
    const existing = await q.findPostingByKey(tx, input.idempotencyKey);
    if (!existing) throw new Error(`posting ${input.idempotencyKey} conflicted but is not visible`);
    return { postingId: existing.id, created: false };
  }
  return { postingId, created: true };
}

/**
 * Locks the user's wallet row (FOR UPDATE) for a check-then-post in the caller's transaction and
 * answers its balance: checks made under this lock (a withdrawal's daily limits) cannot race.
 */
export async function lockWallet(tx: Tx, userId: number): Promise<bigint> {
  const row = (await lockNamed(tx, [{ userId, kind: 'wallet' }])).get(`user:${userId}:wallet`);
  if (!row) throw new InvalidPostingError(`wallet of user ${userId} vanished`);
  return row.balance;
}

/** The ledger's invariants (DESIGN.md §6), including the withdrawal-hold rule. */
export async function checkLedger(db: Executor): Promise<LedgerCheck> {
  const problems: LedgerCheck['problems'] = [];
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
