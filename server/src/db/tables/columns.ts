import { timestamp } from 'drizzle-orm/pg-core';

/** `created_at timestamptz not null default now()`, the column most tables start their life with. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
