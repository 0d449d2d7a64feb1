import type { LocaleTexts, StoredTaskVerification, TaskKind, TaskProofState, TaskSection } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';
import { postings } from './wallet';

/**
 * Tasks (docs/design.md "Product rules"). System tasks 2-10 have fixed ids and are seeded by the `tasks` migration;
 * operator tasks get ids from 101 up. Deleting is soft: completions and postings stay.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    section: text('section').$type<TaskSection>().notNull(),
    kind: text('kind').$type<TaskKind>().notNull(),
    titles: jsonb('titles').$type<LocaleTexts>().notNull(),
    descriptions: jsonb('descriptions').$type<LocaleTexts>().notNull().default({}),
    /** Where the task is done (an http(s) address) per locale; English is the fallback. */
    links: jsonb('links').$type<LocaleTexts>().notNull().default({}),
    /** Paise. */
    reward: bigint('reward', { mode: 'bigint' }).notNull(),
    targetCount: integer('target_count').notNull().default(1),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    sort: integer('sort').notNull().default(0),
    active: boolean('active').notNull().default(true),
    system: boolean('system').notNull().default(false),
    /**
     * How completion is verified (docs/decisions/task-verification.md): an automatic condition or an operator-approved
     * proof.
     */
    verification: jsonb('verification')
      .$type<StoredTaskVerification>()
      .notNull()
      .default({ kind: 'proof', proof: 'either' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check('tasks_reward_positive', sql`${t.reward} > 0`)],
);

/**
 * Proof a user submitted for a proof task: a screenshot (an upload's URL) and/or a link. At most one
 * pending or approved proof per user and task; a rejected one can be followed by a new submission.
 */
export const taskProofs = pgTable(
  'task_proofs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => tasks.id),
    state: text('state').$type<TaskProofState>().notNull().default('pending'),
    imageUrl: text('image_url'),
    link: text('link'),
    /** The operator's reason for a rejection. */
    reason: text('reason'),
    reviewerId: bigint('reviewer_id', { mode: 'number' }).references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('task_proofs_open_idx').on(t.userId, t.taskId).where(sql`${t.state} <> 'rejected'`),
    index('task_proofs_state_idx').on(t.state, t.id),
    index('task_proofs_user_idx').on(t.userId, t.taskId, t.id.desc()),
    check('task_proofs_state_known', sql`${t.state} in ('pending', 'approved', 'rejected')`),
  ],
);

/** One row per task a user has been paid; the primary key makes a second payment impossible. */
export const taskCompletions = pgTable(
  'task_completions',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => tasks.id),
    postingId: bigint('posting_id', { mode: 'number' })
      .notNull()
      .references(() => postings.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.taskId] }), index('task_completions_task_idx').on(t.taskId)],
);
