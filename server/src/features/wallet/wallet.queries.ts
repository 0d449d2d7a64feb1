import {
  type PlatformAccountKind,
  type PostingRef,
  type PostingType,
  type UserAccountKind,
  WITHDRAWAL_OPEN_STATES,
} from '@kamai/contract';
import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { builtOnce } from '../../db/prepared';
import { accounts, entries, postings, tasks, withdrawals } from '../../db/schema';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;

/** The kind of every user's spendable account. */
export const WALLET = 'wallet';

/** Every user has a wallet account from the start; the ledger moves money in and out of it. */
export async function insertWallet(db: Executor, userId: number) {
  await db.insert(accounts).values({ userId, kind: WALLET });
}

export async function walletBalance(db: Executor, userId: number): Promise<bigint> {
  const [row] = await db
    .select({ balance: accounts.balance })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.kind, WALLET)))
    .limit(1);
  return row?.balance ?? 0n;
}

export async function findUserAccountId(db: Executor, userId: number, kind: UserAccountKind) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.kind, kind)))
    .limit(1);
  return row?.id;
}

/** Creates a user's account of `kind` if missing (a hold appears with the first withdrawal). */
export async function createUserAccount(db: Executor, userId: number, kind: UserAccountKind) {
  await db
    .insert(accounts)
    .values({ userId, kind })
    .onConflictDoNothing({ target: [accounts.userId, accounts.kind] });
}

/** Locks the user's account of `kind` (FOR UPDATE) and answers its balance, or undefined if it has none. */
export async function lockUserAccount(db: Executor, userId: number, kind: UserAccountKind) {
  const [row] = await db
    .select({ balance: accounts.balance })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.kind, kind)))
    .limit(1)
    .for('update');
  return row?.balance;
}

/** One entry as `ledger_post` takes it: an account by id, by (user, kind) or by platform kind. */
export interface PostingLine {
  accountId: number | null;
  userId: number | null;
  kind: UserAccountKind | PlatformAccountKind | null;
  amount: bigint;
}

/** A PostgreSQL array literal of the values (NULL for null), for a `::bigint[]` or `::text[]` parameter. */
export function arrayLiteral(values: readonly (string | number | bigint | null)[]): string {
  const items = values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`));
  return `{${items.join(',')}}`;
}

/**
 * A posting through the database's `ledger_post` (db/functions/20_ledger_post.sql, where the ledger's rules live): one
 * statement that locks, checks, writes the posting, its entries and the balances. `postingId` is
 * undefined when a user account would go below zero (nothing was written); `created` is false when the
 * key was posted before (then nothing was written either).
 */
export async function callLedgerPost(
  db: Executor,
  posting: { type: PostingType; idempotencyKey: string; ref: PostingRef },
  lines: PostingLine[],
): Promise<{ postingId: number | undefined; created: boolean }> {
  // Arrays travel as literals: both drivers pass a text parameter alike, and drizzle would expand a
  // JavaScript array into a list of parameters.
  const [row] = await ledgerPost(db).execute({
    type: posting.type,
    key: posting.idempotencyKey,
    ref: JSON.stringify(posting.ref),
    accountIds: arrayLiteral(lines.map((l) => l.accountId)),
    userIds: arrayLiteral(lines.map((l) => l.userId)),
    kinds: arrayLiteral(lines.map((l) => l.kind)),
    amounts: arrayLiteral(lines.map((l) => l.amount)),
  });
  if (!row) throw new Error(`ledger_post of ${posting.idempotencyKey} answered no row`);
  return { postingId: row.posting === null ? undefined : Number(row.posting), created: Boolean(row.created) };
}

const lp = (name: string) => sql.placeholder(name);
// Built by drizzle once per process and named (`builtOnce`): every posting of every write, inside its
// transaction (benchmarks 3 and 4, docs/performance.md).
const ledgerPost = builtOnce('kamai_ledger_post', (db: Executor) =>
  db.select({ posting: sql<string | null>`o_posting::text`, created: sql<boolean>`o_created` }).from(
    sql`ledger_post(${lp('type')}, ${lp('key')}, ${lp('ref')}::jsonb, ${lp('accountIds')}::bigint[],
        ${lp('userIds')}::bigint[], ${lp('kinds')}::text[], ${lp('amounts')}::bigint[]) as lp`,
  ),
);

/** An account's entries with their posting, newest first; `beforeId` continues a page. */
export async function listEntries(db: Executor, accountId: number, limit: number, beforeId?: number) {
  return (
    db
      .select({
        id: entries.id,
        type: postings.type,
        amount: entries.amount,
        balanceAfter: entries.balanceAfter,
        createdAt: entries.createdAt,
        ref: postings.ref,
        taskTitles: tasks.titles,
      })
      .from(entries)
      .innerJoin(postings, eq(postings.id, entries.postingId))
      // The task's title in every locale, so each reader sees the cause in their own language.
      .leftJoin(tasks, sql`${tasks.id} = (${postings.ref}->>'taskId')::bigint`)
      .where(and(eq(entries.accountId, accountId), beforeId === undefined ? undefined : lt(entries.id, beforeId)))
      .orderBy(desc(entries.id))
      .limit(limit)
  );
}

/** Postings whose entries do not sum to zero, or that have fewer than two entries. */
export async function unbalancedPostings(db: Executor) {
  const result = await db.execute(sql`
    select p.id, coalesce(sum(e.amount), 0)::text as total, count(e.id)::int as n
    from ${postings} p left join ${entries} e on e.posting_id = p.id
    group by p.id
    having coalesce(sum(e.amount), 0) <> 0 or count(e.id) < 2
    order by p.id`);
  return rowsOf(result).map((r) => ({ id: Number(r.id), total: BigInt(String(r.total)), count: Number(r.n) }));
}

/** User accounts whose cached balance differs from the sum of their entries. */
export async function mismatchedBalances(db: Executor) {
  const result = await db.execute(sql`
    select a.id, a.balance::text as balance, coalesce(sum(e.amount), 0)::text as total
    from ${accounts} a left join ${entries} e on e.account_id = a.id
    where a.user_id is not null
    group by a.id
    having a.balance <> coalesce(sum(e.amount), 0)
    order by a.id`);
  return rowsOf(result).map((r) => ({
    id: Number(r.id),
    balance: BigInt(String(r.balance)),
    total: BigInt(String(r.total)),
  }));
}

/** User accounts whose newest entry's balance_after differs from the cached balance. */
export async function mismatchedBalanceAfter(db: Executor) {
  const result = await db.execute(sql`
    select a.id, a.balance::text as balance, last.balance_after::text as balance_after
    from ${accounts} a
    join lateral (
      select e.balance_after from ${entries} e where e.account_id = a.id order by e.id desc limit 1
    ) last on true
    where a.user_id is not null and last.balance_after is distinct from a.balance
    order by a.id`);
  return rowsOf(result).map((r) => ({ id: Number(r.id), balance: String(r.balance), after: String(r.balance_after) }));
}

export async function negativeBalances(db: Executor) {
  return db
    .select({ id: accounts.id, balance: accounts.balance })
    .from(accounts)
    .where(and(isNotNull(accounts.userId), lt(accounts.balance, 0n)))
    .orderBy(asc(accounts.id));
}

/**
 * Users whose hold differs from the sum of their withdrawals that are pending, approved or processing
 * (docs/design.md "Money rules": every such withdrawal has exactly its amount on hold).
 */
export async function mismatchedHolds(db: Executor) {
  const result = await db.execute(sql`
    select coalesce(h.user_id, w.user_id) as user_id, h.id as account_id,
      coalesce(h.balance, 0)::text as held, coalesce(w.open, 0)::text as open
    from (select id, user_id, balance from ${accounts} where kind = 'hold') h
    full outer join (
      select user_id, sum(amount) as open from ${withdrawals}
      where ${inArray(withdrawals.state, [...WITHDRAWAL_OPEN_STATES])} group by user_id
    ) w on w.user_id = h.user_id
    where coalesce(h.balance, 0) <> coalesce(w.open, 0)
    order by 1`);
  return rowsOf(result).map((r) => ({
    userId: Number(r.user_id),
    accountId: r.account_id === null ? null : Number(r.account_id),
    held: String(r.held),
    open: String(r.open),
  }));
}

/** The postings `ids` names with their entries and accounts, for a violation the console shows. */
export async function postingsWithEntries(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: postings.id,
      type: postings.type,
      idempotencyKey: postings.idempotencyKey,
      createdAt: postings.createdAt,
      accountId: entries.accountId,
      userId: accounts.userId,
      kind: accounts.kind,
      amount: entries.amount,
    })
    .from(postings)
    .innerJoin(entries, eq(entries.postingId, postings.id))
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .where(inArray(postings.id, ids))
    .orderBy(asc(postings.id), asc(entries.id));
  return rows;
}

/** Every entry of the user's wallet, hold and pending rebates, oldest first (the data export). */
export async function userLedgerEntries(db: Executor, userId: number) {
  return db
    .select({
      id: entries.id,
      account: accounts.kind,
      type: postings.type,
      amount: entries.amount,
      balanceAfter: entries.balanceAfter,
      createdAt: entries.createdAt,
    })
    .from(entries)
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(and(eq(accounts.userId, userId), inArray(accounts.kind, ['wallet', 'hold', 'rebate_pending'])))
    .orderBy(asc(entries.id));
}
