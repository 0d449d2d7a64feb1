import type { ControlChangeKind, ControlChangeState } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/** Opaque bearer tokens: only the SHA-256 of the token is stored (docs/design.md "API contract"). */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Operator settings by key (`rebate`, `intro`), seeded by migration. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every admin write: who, what, when, before and after (docs/design.md "Product rules"). Append-only: the `admin`
 * migration's trigger refuses UPDATE, DELETE and TRUNCATE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: bigint('actor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The server's request id (what it answered as `x-request-id`). */
    requestId: text('request_id'),
    /** The `x-request-id` the client sent, kept apart: a client may send any id, or the same twice. */
    clientRequestId: text('client_request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorId, t.id.desc()),
    index('audit_log_target_idx').on(t.target, t.id.desc()),
  ],
);

/**
 * A user's own in-app notifications (docs/design.md "Product rules"): withdrawal approved / rejected / paid / failed,
 * reward credited. `kind` picks the translated text on the client; `params` fills it (amounts as rupee
 * strings, reasons, ids). Shown in /List1 beside the system notices.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number | null>>().notNull().default({}),
    /** Makes a notification at most once per cause (e.g. `withdrawal:17:paid`). */
    dedupeKey: text('dedupe_key').notNull().unique(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.id.desc())],
);

/**
 * A client's Idempotency-Key per user and route: the hash of the request it came with and the answer
 * it got, written in the same transaction as the effect, so a retry gets the same answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope, t.key] })],
);

/**
 * Background work shared by every server instance (docs/design.md "Architecture"): claimed with FOR UPDATE SKIP
 * LOCKED and leased until `locked_until`, so a job whose instance died is picked up again.
 * `dedupe_key` makes enqueueing the same work twice a no-op.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`)],
);

/**
 * A proposed change of a control (docs/decisions/dual-control.md): one admin proposes, another
 * applies. `oldValue` is what the proposal changes as it was when proposed (the apply refuses when it
 * is no longer so), `newValue` what applying stores. `earliestApplyAt` is `createdAt` unless the
 * proposer was the only active admin: then the proposer may apply it themself from 24 hours later.
 */
export const controlChanges = pgTable(
  'control_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').$type<ControlChangeKind>().notNull(),
    /** `setting:<key>` or `user:<id>`. */
    target: text('target').notNull(),
    oldValue: jsonb('old_value').$type<Record<string, unknown>>().notNull(),
    newValue: jsonb('new_value').$type<Record<string, unknown>>().notNull(),
    proposedBy: bigint('proposed_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    earliestApplyAt: timestamp('earliest_apply_at', { withTimezone: true }).notNull(),
    state: text('state').$type<ControlChangeState>().notNull().default('pending'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('control_changes_state_idx').on(t.state, t.id),
    check('control_changes_state_known', sql`${t.state} in ('pending', 'applied', 'cancelled', 'expired')`),
    check('control_changes_kind_known', sql`${t.kind} in ('settings', 'rebate', 'role', 'unfreeze', 'linked_rate')`),
  ],
);
