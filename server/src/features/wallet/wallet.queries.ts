import {
  type PlatformAccountKind,
  type PostingRef,
  type PostingType,
  type UserAccountKind,
  WITHDRAWAL_OPEN_STATES,
} from '@kamai/contract';
import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
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

export interface LockedAccount {
  id: number;
  userId: number | null;
  kind: string;
  balance: bigint;
}

/**
 * The accounts a posting names, by id, by (user, kind) or by platform kind, in one statement: user
 * accounts locked (FOR UPDATE) in ascending id order, platform accounts only read (never locked, so
 * no posting waits on them). A user account that does not exist yet is simply absent.
 */
export async function lockAccountsFor(
  db: Executor,
  names: { ids: number[]; owned: { userId: number; kind: UserAccountKind }[]; platform: PlatformAccountKind[] },
): Promise<LockedAccount[]> {
  const byId = names.ids.length
    ? sql`a.id in (${sql.join(
        names.ids.map((id) => sql`${id}::bigint`),
        sql`, `,
      )})`
    : sql`false`;
  const byOwner = names.owned.length
    ? sql`(a.user_id, a.kind) in (${sql.join(
        names.owned.map((o) => sql`(${o.userId}::bigint, ${o.kind}::text)`),
        sql`, `,
      )})`
    : sql`false`;
  const platform = names.platform.length
    ? sql`p.kind in (${sql.join(
        names.platform.map((k) => sql`${k}::text`),
        sql`, `,
      )})`
    : sql`false`;
  // Text, so both engines hand back the same JavaScript types.
  const result = await db.execute(sql`
    with locked as (
      select a.id, a.user_id, a.kind, a.balance from accounts a
      where a.user_id is not null and (${byId} or ${byOwner})
      order by a.id
      for update
    )
    select id::text, user_id::text, kind, balance::text from locked
    union all
    select p.id::text, null, p.kind, p.balance::text from accounts p where p.user_id is null and ${platform}
  `);
  return rowsOf(result).map((row) => ({
    id: Number(row.id),
    userId: row.user_id === null ? null : Number(row.user_id),
    kind: String(row.kind),
    balance: BigInt(String(row.balance)),
  }));
}

/**
 * Writes a posting in one statement: the posting row (unless its idempotency key was posted before),
 * its entries and the new cached balances of the user accounts. The id of the new posting, or
 * undefined when the key was already posted (then nothing was written).
 */
export async function writePosting(
  db: Executor,
  posting: { type: PostingType; idempotencyKey: string; ref: PostingRef },
  lines: { accountId: number; amount: bigint; balanceAfter: bigint | null }[],
  balances: { accountId: number; balance: bigint }[],
): Promise<number | undefined> {
  const entryRows = sql.join(
    lines.map(
      (l, n) =>
        sql`(${n}::int, ${l.accountId}::bigint, ${l.amount.toString()}::bigint, ${l.balanceAfter === null ? null : l.balanceAfter.toString()}::bigint)`,
    ),
    sql`, `,
  );
  const balanceRows = balances.length
    ? sql.join(
        balances.map((b) => sql`(${b.accountId}::bigint, ${b.balance.toString()}::bigint)`),
        sql`, `,
      )
    : undefined;
  // Each data-modifying part runs whatever the others return; those after the posting take its id
  // from `posted`, so a key posted before writes nothing else either.
  const result = await db.execute(sql`
    with posted as (
      insert into postings (type, idempotency_key, ref)
      values (${posting.type}, ${posting.idempotencyKey}, ${JSON.stringify(posting.ref)}::jsonb)
      on conflict (idempotency_key) do nothing
      returning id
    ),
    lines as (
      insert into entries (posting_id, account_id, amount, balance_after)
      select posted.id, v.account_id, v.amount, v.balance_after
      from posted, (values ${entryRows}) as v(n, account_id, amount, balance_after)
      -- In the caller's order: an account's newest entry carries its balance.
      order by v.n
    )${
      balanceRows
        ? sql`,
    balances as (
      update accounts set balance = v.balance
      from (values ${balanceRows}) as v(id, balance)
      where accounts.id = v.id and exists (select 1 from posted)
    )`
        : sql``
    }
    select id::text from posted
  `);
  const [row] = rowsOf(result);
  return row ? Number(row.id) : undefined;
}

export async function findPostingByKey(db: Executor, idempotencyKey: string) {
  const [row] = await db.select().from(postings).where(eq(postings.idempotencyKey, idempotencyKey)).limit(1);
  return row;
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
