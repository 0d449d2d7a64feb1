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

async function resolveAccount(tx: Tx, account: AccountRef): Promise<number> {
  if ('accountId' in account) return account.accountId;
  if ('userId' in account) {
    const found = await q.findUserAccountId(tx, account.userId, account.kind);
    if (found !== undefined) return found;
    await q.createUserAccount(tx, account.userId, account.kind);
    const created = await q.findUserAccountId(tx, account.userId, account.kind);
    if (created === undefined) throw new InvalidPostingError(`no ${account.kind} account for user ${account.userId}`);
    return created;
  }
  const platform = await q.findPlatformAccountId(tx, account.kind);
  if (platform === undefined) throw new InvalidPostingError(`no platform account ${account.kind}`);
  return platform;
}

/**
 * The only way money moves (DESIGN.md §6), inside the caller's transaction: locks the user accounts
 * it touches in ascending id order, refuses to take any below zero, writes the posting and its
 * entries, and updates their cached balances. Platform accounts are read, never locked or updated.
 */
export async function post(tx: Tx, input: PostingInput): Promise<PostingResult> {
  if (input.entries.length < 2) throw new InvalidPostingError('a posting needs at least two entries');
  if (input.entries.some((e) => e.amount === 0n)) throw new InvalidPostingError('an entry of zero');
  const total = input.entries.reduce((sum, e) => sum + e.amount, 0n);
  if (total !== 0n) throw new InvalidPostingError(`entries of ${input.idempotencyKey} sum to ${total}, not 0`);

  const ids: number[] = [];
  for (const entry of input.entries) ids.push(await resolveAccount(tx, entry.account));
  const rows = await q.lockAccounts(tx, [...new Set(ids)]);
  const byId = new Map(rows.map((row) => [row.id, row]));

  const running = new Map<number, bigint>();
  const values = input.entries.map((entry, i) => {
    const accountId = ids[i] as number;
    const row = byId.get(accountId);
    if (!row) throw new InvalidPostingError(`account ${accountId} does not exist`);
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
  const postingId = await q.insertPosting(tx, {
    type: input.type,
    idempotencyKey: input.idempotencyKey,
    ref: input.ref ?? {},
  });
  if (postingId === undefined) {
    const existing = await q.findPostingByKey(tx, input.idempotencyKey);
    if (!existing) throw new Error(`posting ${input.idempotencyKey} conflicted but is not visible`);
    return { postingId: existing.id, created: false };
  }
  await q.insertEntries(
    tx,
    values.map((v) => ({ postingId, ...v })),
  );
  for (const [accountId, balance] of running) await q.setBalance(tx, accountId, balance);
  return { postingId, created: true };
}

/**
 * Locks the user's wallet row (FOR UPDATE) for a check-then-post in the caller's transaction and
 * answers its balance: checks made under this lock (a withdrawal's daily limits) cannot race.
 */
export async function lockWallet(tx: Tx, userId: number): Promise<bigint> {
  const id = await resolveAccount(tx, { userId, kind: 'wallet' });
  const [row] = await q.lockAccounts(tx, [id]);
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
