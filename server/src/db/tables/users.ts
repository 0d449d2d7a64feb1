import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** E-mail lower-cased or phone as 91XXXXXXXXXX. */
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    inviteCode: text('invite_code').notNull().unique(),
    inviterId: bigint('inviter_id', { mode: 'number' }),
    role: text('role', { enum: ['user', 'reviewer', 'admin'] })
      .notNull()
      .default('user'),
    frozen: boolean('frozen').notNull().default(false),
    /** Set when the user deleted the account: the row stays (the ledger's anonymous owner), its personal data gone. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The phone or e-mail was registered before (its keyed hash was in `identity_ledger`): the account
     * works, but it is no new qualified invitee and earns no first-time (system task) reward again.
     */
    returningIdentity: boolean('returning_identity').notNull().default(false),
    /**
     * The person behind the username (`canonicalIdentity`: no `+tag`, Gmail without dots): one live
     * account per identity (docs/decisions/canonical-identity.md). Null once the account is deleted.
     */
    canonicalIdentity: text('canonical_identity'),
    /**
     * Since when the account is staff (reviewer or admin); null for a user. Kept by the trigger
     * `users_staff_since` (migration 0023) whoever changes the role: rebates before it were a user's.
     */
    staffSince: timestamp('staff_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('users_inviter_idx').on(t.inviterId, t.id.desc()),
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_canonical_identity_idx').on(t.canonicalIdentity),
  ],
);

/**
 * Every identity (normalised phone or e-mail) ever registered, as a keyed hash (HMAC-SHA256 with
 * `IDENTITY_HASH_SECRET`, which production keeps outside the database): kept after the account is deleted so that the same phone counts as
 * a friend once, ever (docs/decisions/account-deletion.md). The hash names no one
 * without the key.
 */
export const identityLedger = pgTable('identity_ledger', {
  hash: text('hash').primaryKey(),
  createdAt: createdAt(),
});
