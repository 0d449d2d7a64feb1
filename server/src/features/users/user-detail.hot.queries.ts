// Exists only for speed: benchmark 2, docs/performance.md ("Benchmark 2: authenticated reads"). user/detail
// checks the caller's session in the query that reads its account (docs/decisions/authenticated-reads.md),
// and its row is read straight into the answer instead of through drizzle's per-row mapping
// (`preparedRows`, db/hot-reads.ts; docs/decisions/hot-read-yardstick.md).
import { formatRupees, type UserDetail } from '@kamai/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedRows } from '../../db/hot-reads';
import { accounts, sessions, users } from '../../db/schema';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';
import { WALLET } from '../wallet';

// The caller's account and wallet balance, built by drizzle from the one definition of a live session;
// its row is read straight into the answer by the names of its columns, with no copy between.
const detailBySession = preparedRows(
  'kamai_user_detail',
  (db: Db) =>
    db
      .select({
        id: users.id,
        username: users.username,
        inviteCode: users.inviteCode,
        balance: sql<string>`coalesce(${accounts.balance}, 0)`,
        role: users.role,
        createdAt: sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(accounts, and(eq(accounts.userId, sessions.userId), eq(accounts.kind, WALLET)))
      .where(liveSessionOf())
      .limit(1),
  ([row], col): UserDetail | undefined =>
    row
      ? {
          id: Number(row[col.id]),
          username: row[col.username] as string,
          inviteCode: row[col.inviteCode] as string,
          balance: formatRupees(BigInt(row[col.balance] as string)),
          role: row[col.role] as UserDetail['role'],
          createdAt: row[col.createdAt] as string,
        }
      : undefined,
);

/** The caller of a live session as user/detail answers it, in one query; undefined when the session is not live. */
export function findUserDetailBySession(db: Db, tokenHash: string, now: Date): Promise<UserDetail | undefined> {
  return detailBySession(db, sessionParams(tokenHash, now));
}
