import { and, eq, gt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { preparedPer } from '../db/prepared';
import { sessions, users } from '../db/schema';

export async function insertSession(db: Executor, values: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(values);
}

/**
 * The one definition of a live session, as a condition on `sessions`: this token's, not expired. Its
 * placeholders are filled by `sessionParams`. Every query that authenticates a caller uses it.
 */
export function liveSessionOf(): SQL {
  return and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    gt(sessions.expiresAt, sql.placeholder('now')),
  ) as SQL;
}

/** The last second `isoString` wrote, and its ISO string up to the milliseconds (the same all that second). */
let second = { start: Number.NaN, prefix: '' };

/** `now.toISOString()`, character for character, with Date's formatting done once a second. */
export function isoString(now: Date): string {
  const ms = now.getTime();
  const start = Math.floor(ms / 1000) * 1000;
  // An invalid date (NaN) never matches, so toISOString throws its RangeError as it would.
  if (start !== second.start) second = { start, prefix: now.toISOString().slice(0, -4) };
  return `${second.prefix}${String(ms - start).padStart(3, '0')}Z`;
}

/** The placeholder values of `liveSessionOf`. */
export function sessionParams(tokenHash: string, now: Date) {
  // An ISO string, not a Date: placeholders skip the column's encoder, and both drivers read this alike.
  return { tokenHash, now: isoString(now) };
}

const liveSession = preparedPer((db: Db) =>
  db
    .select({ id: users.id, role: users.role, frozen: users.frozen })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSessionOf())
    .limit(1)
    .prepare('kamai_live_session'),
);

export async function findLiveSession(db: Db, tokenHash: string, now: Date) {
  const [row] = await liveSession(db).execute(sessionParams(tokenHash, now));
  return row;
}

export async function deleteSession(db: Executor, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends the user's sessions (but the given one); answers how many ended. */
export async function deleteUserSessions(db: Executor, userId: number, exceptTokenHash?: string) {
  const ended = await db
    .delete(sessions)
    .where(
      exceptTokenHash
        ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, exceptTokenHash))
        : eq(sessions.userId, userId),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return ended.length;
}
