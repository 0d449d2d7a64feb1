import type { RebateState } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';
import { postings } from './wallet';

/**
 * A rebate owed to an upline (`earner_id`, level 1 or 2) on an invitee's task reward (the posting
 * `source_posting_id`), docs/decisions/rebate-hold.md: posted at once into the earner's
 * `rebate_pending` account (`accrual_posting_id`), then after its hold (`available_at`) moved to the
 * wallet (`available`) or taken back (`reversed`, with `reason`); `settle_posting_id` is that posting.
 * One row per source reward and level.
 */
export const rebates = pgTable(
  'rebates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sourcePostingId: bigint('source_posting_id', { mode: 'number' })
      .notNull()
      .references(() => postings.id),
    inviteeId: bigint('invitee_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    earnerId: bigint('earner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    level: integer('level').notNull(),
    /** The rate in force when the reward was paid. */
    bps: integer('bps').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    state: text('state').$type<RebateState>().notNull().default('pending'),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull(),
    accrualPostingId: bigint('accrual_posting_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => postings.id),
    settlePostingId: bigint('settle_posting_id', { mode: 'number' })
      .unique()
      .references(() => postings.id),
    /** Why it was reversed: `source_reversed`, `duplicate_identity`, `earner_staff`, `earner_deleted`. */
    reason: text('reason'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rebates_source_level_idx').on(t.sourcePostingId, t.level),
    index('rebates_due_idx').on(t.availableAt, t.id).where(sql`${t.state} = 'pending'`),
    index('rebates_earner_idx').on(t.earnerId, t.inviteeId),
    index('rebates_invitee_idx').on(t.inviteeId),
    check('rebates_level', sql`${t.level} in (1, 2)`),
    check('rebates_amount_positive', sql`${t.amount} > 0`),
    check('rebates_state', sql`${t.state} in ('pending', 'available', 'reversed')`),
  ],
);
