import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { users } from '../db/schema';

/** The username of the operator who decided an item (null: none, or no such account). */
export async function deciderName(db: Executor, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, id)).limit(1);
  return row?.username ?? null;
}
