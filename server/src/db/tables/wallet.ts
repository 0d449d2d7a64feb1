import type { PostingRef, PostingType } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * Ledger accounts (docs/design.md "Money rules"). A user's `wallet` (created with the user) and `hold` keep a cached
 * balance in integer paise, changed only by the ledger's `post()` after locking the row, never below
 * zero. Platform accounts (`platform_*`, no user) are seeded by the `ledger` migration and never
 * updated: their balance is the sum of their entries, so no posting waits on them.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    kind: text('kind').notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_user_kind_idx').on(t.userId, t.kind),
    uniqueIndex('accounts_platform_kind_idx').on(t.kind).where(sql`${t.userId} is null`),
    check(
      'accounts_owner_kind',
      sql`(${t.userId} is not null and ${t.kind} in ('wallet', 'hold', 'rebate_pending')) or (${t.userId} is null and ${t.kind} in ('platform_rewards', 'platform_revenue', 'platform_payouts', 'platform_expenses', 'platform_unclaimed'))`,
    ),
    check('accounts_balance_nonnegative', sql`${t.userId} is null or ${t.balance} >= 0`),
  ],
);

/** One movement of money; `idempotency_key` names its cause, so a retry can never post twice. */
export const postings = pgTable('postings', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  type: text('type').$type<PostingType>().notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  ref: jsonb('ref').$type<PostingRef>().notNull().default({}),
  createdAt: createdAt(),
});

/** Signed paise per account; the entries of a posting sum to zero. `balance_after` only on user accounts. */
export const entries = pgTable(
  'entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    postingId: bigint('posting_id', { mode: 'number' })
      .notNull()
      .references(() => postings.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('entries_account_idx').on(t.accountId, t.id.desc()),
    index('entries_posting_idx').on(t.postingId),
    // Date-range exports and "paid today" read entries in time order.
    index('entries_created_idx').on(t.createdAt, t.id),
  ],
);
