import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * Who stored an upload and what for: `public` files (an operator's notice images, task
 * icons, videos) are served to anyone; `proof` files only by a signed URL given to their owner and to
 * staff, and only their owner may submit them as a proof. The file itself is content-addressed and
 * shared by equal uploads; a file with no row at all is an operator upload older than this table.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `<sha256>.<ext>`, the stored file's name. */
    name: text('name').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['public', 'proof'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('uploads_name_owner_purpose_idx').on(t.name, t.ownerId, t.purpose),
    index('uploads_owner_idx').on(t.ownerId),
  ],
);
