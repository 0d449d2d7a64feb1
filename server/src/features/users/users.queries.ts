import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { accounts, sessions, users } from '../../db/schema';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';
import { WALLET } from '../wallet';

export type UserRow = typeof users.$inferSelect;

export async function findUserByUsername(db: Executor, username: string) {
  const [row] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByInviteCode(db: Executor, inviteCode: string) {
  const [row] = await db.select().from(users).where(eq(users.inviteCode, inviteCode)).limit(1);
  return row;
}

export async function inviteCodeExists(db: Executor, inviteCode: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.inviteCode, inviteCode)).limit(1);
  return Boolean(row);
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert users returned no row');
  return row;
}

const detailBySession = preparedPer((db: Db) =>
  db
    .select({
      id: users.id,
      username: users.username,
      inviteCode: users.inviteCode,
      role: users.role,
      createdAt: users.createdAt,
      balance: accounts.balance,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(accounts, and(eq(accounts.userId, sessions.userId), eq(accounts.kind, WALLET)))
    .where(liveSessionOf())
    .limit(1)
    .prepare('kamai_user_detail'),
);

/** The caller of a live session with its wallet balance, in one query; undefined when the session is not live. */
export async function findUserDetailBySession(db: Db, tokenHash: string, now: Date) {
  const [row] = await detailBySession(db).execute(sessionParams(tokenHash, now));
  return row && { ...row, balance: row.balance ?? 0n };
}

export async function updatePassword(db: Executor, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function setRole(db: Executor, userId: number, role: UserRow['role']) {
  await db.update(users).set({ role }).where(eq(users.id, userId));
}

export async function anyAdminExists(db: Executor) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return Boolean(row);
}
