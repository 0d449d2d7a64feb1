import { bigint, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

export const introViews = pgTable('intro_views', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  createdAt: createdAt(),
});

/**
 * How much of the introduction's video a user has played, as reported and capped by the server: never
 * more than the wall-clock time since `started_at` (the first report) nor the video's length.
 */
export const introWatches = pgTable('intro_watches', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  watchedSeconds: integer('watched_seconds').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
