import type { LinkedEventKind, LinkedStatus } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * A messaging number linked to a user through the `LinkProvider` (docs/design.md "Scope"). A row exists once a
 * pairing completed; the number then stays with that user (unique `phone`). Online time is kept as
 * closed, unsettled seconds plus the open stretch since `online_since`, so settlement can pay exactly
 * the time since the last one.
 */
export const linkedAccounts = pgTable(
  'linked_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** 91XXXXXXXXXX. */
    phone: text('phone').notNull().unique(),
    status: text('status').$type<LinkedStatus>().notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
    /** Start of the current online stretch (or of its unsettled part), null when not online. */
    onlineSince: timestamp('online_since', { withTimezone: true }),
    /** Closed online time, all of it. */
    onlineSeconds: bigint('online_seconds', { mode: 'number' }).notNull().default(0),
    /** Closed online time not yet settled. */
    unsettledSeconds: bigint('unsettled_seconds', { mode: 'number' }).notNull().default(0),
    /** Paise credited by settlements so far. */
    earned: bigint('earned', { mode: 'bigint' }).notNull().default(sql`0`),
    lastSettledAt: timestamp('last_settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('linked_accounts_user_idx').on(t.userId, t.id.desc()),
    index('linked_accounts_status_idx').on(t.status, t.id.desc()),
    check('linked_accounts_seconds_nonnegative', sql`${t.onlineSeconds} >= 0 and ${t.unsettledSeconds} >= 0`),
  ],
);

/** A pairing asked of the provider: a code for a number, or a QR payload any number may scan. */
export const linkedPairings = pgTable(
  'linked_pairings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    method: text('method', { enum: ['code', 'qr'] }).notNull(),
    /** The number a code was asked for, or the number that scanned a QR once completed. */
    phone: text('phone'),
    /** The provider's reference: the pairing code, or the QR pairing's id. */
    ref: text('ref').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('linked_pairings_phone_idx').on(t.phone, t.id.desc()),
    index('linked_pairings_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('linked_pairings_qr_ref_idx').on(t.ref).where(sql`${t.method} = 'qr'`),
  ],
);

/** Everything that happened to a linked number (its log, shown to the user). Append-only. */
export const linkedAccountEvents = pgTable(
  'linked_account_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => linkedAccounts.id),
    kind: text('kind').$type<LinkedEventKind>().notNull(),
    fromStatus: text('from_status').$type<LinkedStatus>(),
    toStatus: text('to_status').$type<LinkedStatus>(),
    actor: text('actor', { enum: ['user', 'operator', 'provider'] }).notNull(),
    method: text('method', { enum: ['code', 'qr'] }),
    seconds: bigint('seconds', { mode: 'number' }),
    /** Paise, for settlements. */
    amount: bigint('amount', { mode: 'bigint' }),
    createdAt: createdAt(),
  },
  (t) => [index('linked_account_events_account_idx').on(t.accountId, t.id.desc())],
);
