import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Login attempts counted per fixed window (docs/decisions/login-throttling.md): one row per (username,
 * address) for the short lock of that pair, and one per username with address `*` for the lock of the
 * account from anywhere. Keyed by the username as typed (normalised), known or not, so an unknown name
 * behaves like a known one. An attempt is reserved (counted) before its password is checked, in one
 * upsert that refuses when the window is full; a login that succeeds gives its reservation back.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    username: text('username').notNull(),
    address: text('address').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull(),
  },
  (t) => [primaryKey({ columns: [t.username, t.address] }), index('login_attempts_window_idx').on(t.windowStart)],
);
