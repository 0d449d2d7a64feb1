import type { CreditRequestState } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';
import { postings } from './wallet';

/**
 * A credit above the threshold, waiting for a second admin (four-eyes): posted only when another
 * admin approves it, keyed `revenue:request:<id>`.
 */
export const creditRequests = pgTable(
  'credit_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** Internal note (staff only). */
    remark: text('remark').notNull(),
    /** What the user's income record shows once posted; null: a generic label. */
    userText: text('user_text'),
    state: text('state').$type<CreditRequestState>().notNull().default('pending'),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason'),
    postingId: bigint('posting_id', { mode: 'number' }).references(() => postings.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_requests_state_idx').on(t.state, t.id),
    check('credit_requests_amount_positive', sql`${t.amount} > 0`),
    check('credit_requests_state_known', sql`${t.state} in ('pending', 'approved', 'rejected')`),
  ],
);
