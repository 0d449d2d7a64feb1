import type { LocaleTexts } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/** Operators' notices (docs/design.md "Product rules"): users see published ones whose time has come. */
export const notices = pgTable(
  'notices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** English, the text every reader without a translation sees. */
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Translations by locale (never `en_US`); a missing one falls back to `title` / `body`. */
    titles: jsonb('titles').$type<LocaleTexts>().notNull().default({}),
    bodies: jsonb('bodies').$type<LocaleTexts>().notNull().default({}),
    imageUrl: text('image_url'),
    pinned: boolean('pinned').notNull().default(false),
    published: boolean('published').notNull().default(false),
    /** Set when first published (or scheduled); users see the notice from then on. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notices_visible_idx').on(t.pinned.desc(), t.publishedAt.desc(), t.id.desc()).where(sql`${t.published}`),
  ],
);

/** Which user opened which notice. */
export const noticeReads = pgTable(
  'notice_reads',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.noticeId] }), index('notice_reads_notice_idx').on(t.noticeId)],
);
