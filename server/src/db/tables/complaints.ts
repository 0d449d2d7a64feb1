import type {
  ComplaintCategory,
  ComplaintEventKind,
  ComplaintOutcome,
  ComplaintState,
  ComplaintSubjectKind,
} from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * A user's complaint (docs/decisions/grievances.md): what it is about, the user's text in the language
 * it was raised in, optionally the user's own withdrawal, wallet entry or payout account it points to
 * (checked when raised; no foreign key, as the kinds differ), and where it stands. Its deadlines are
 * counted from `created_at` (COMPLAINT_ACK_HOURS, COMPLAINT_RESOLVE_DAYS); its number is `KM-` and the id.
 */
export const complaints = pgTable(
  'complaints',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    category: text('category').$type<ComplaintCategory>().notNull(),
    text: text('text').notNull(),
    locale: text('locale').notNull(),
    subjectKind: text('subject_kind').$type<ComplaintSubjectKind>(),
    subjectId: bigint('subject_id', { mode: 'number' }),
    state: text('state').$type<ComplaintState>().notNull().default('open'),
    outcome: text('outcome').$type<ComplaintOutcome>(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('complaints_user_idx').on(t.userId, t.id.desc()),
    index('complaints_state_idx').on(t.state, t.id),
    check('complaints_state_known', sql`${t.state} in ('open', 'acknowledged', 'closed')`),
    check(
      'complaints_category_known',
      sql`${t.category} in ('withdrawal', 'reward', 'payout_account', 'privacy', 'other')`,
    ),
    check(
      'complaints_subject_known',
      sql`(${t.subjectKind} is null and ${t.subjectId} is null) or (${t.subjectKind} in ('withdrawal', 'entry', 'payout_account') and ${t.subjectId} is not null)`,
    ),
    check(
      'complaints_closed_outcome',
      sql`(${t.state} = 'closed') = (${t.outcome} is not null and ${t.closedAt} is not null)`,
    ),
  ],
);

/** What happened to a complaint after it was raised: acknowledged, an operator's reply, closed (with its outcome). */
export const complaintEvents = pgTable(
  'complaint_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    complaintId: bigint('complaint_id', { mode: 'number' })
      .notNull()
      .references(() => complaints.id),
    kind: text('kind').$type<Exclude<ComplaintEventKind, 'raised'>>().notNull(),
    /** The operator. */
    actorId: bigint('actor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    text: text('text'),
    outcome: text('outcome').$type<ComplaintOutcome>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('complaint_events_complaint_idx').on(t.complaintId, t.id),
    check('complaint_events_kind_known', sql`${t.kind} in ('acknowledged', 'reply', 'closed')`),
  ],
);
