import type { PlatformAccountKind, PostingRef, PostingType, UserAccountKind } from '@kamai/contract';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, tasks, withdrawals } from '../../db/schema';

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

export async function findPlatformAccountId(db: Executor, kind: PlatformAccountKind) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(isNull(accounts.userId), eq(accounts.kind, kind)))
    .limit(1);
  return row?.id;
}

/** The given accounts' owner and balance; user accounts among them are locked in ascending id order. */
export async function lockAccounts(db: Executor, ids: number[]) {
  const locked = await db
    .select({ id: accounts.id, userId: accounts.userId, balance: accounts.balance })
    .from(accounts)
    .where(and(inArray(accounts.id, ids), isNotNull(accounts.userId)))
    .orderBy(asc(accounts.id))
    .for('update');
  const platform = await db
    .select({ id: accounts.id, userId: accounts.userId, balance: accounts.balance })
    .from(accounts)
    .where(and(inArray(accounts.id, ids), isNull(accounts.userId)));
  return [...locked, ...platform];
}

/** The new posting's id, or undefined when the key was already posted. */
export async function insertPosting(
  db: Executor,
  values: { type: PostingType; idempotencyKey: string; ref: PostingRef },
) {
  const [row] = await db
    .insert(postings)
    .values(values)
    .onConflictDoNothing({ target: postings.idempotencyKey })
    .returning({ id: postings.id });
  return row?.id;
}

export async function findPostingByKey(db: Executor, idempotencyKey: string) {
  const [row] = await db.select().from(postings).where(eq(postings.idempotencyKey, idempotencyKey)).limit(1);
  return row;
}

export async function insertEntries(db: Executor, values: (typeof entries.$inferInsert)[]) {
  await db.insert(entries).values(values);
}

export async function setBalance(db: Executor, accountId: number, balance: bigint) {
  await db.update(accounts).set({ balance }).where(eq(accounts.id, accountId));
}

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

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;

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
 * (DESIGN.md §6: every such withdrawal has exactly its amount on hold).
 */
export async function mismatchedHolds(db: Executor) {
  const result = await db.execute(sql`
    select coalesce(h.user_id, w.user_id) as user_id, h.id as account_id,
      coalesce(h.balance, 0)::text as held, coalesce(w.open, 0)::text as open
    from (select id, user_id, balance from ${accounts} where kind = 'hold') h
    full outer join (
      select user_id, sum(amount) as open from ${withdrawals}
      where state in ('pending', 'approved', 'processing') group by user_id
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
