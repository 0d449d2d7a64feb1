import { randomBytes } from 'node:crypto';
import type { Role } from '@kamai/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export async function findUserByUsername(db: Executor, username: string) {
  const [row] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  return row;
}

/**
 * The account that holds this username, or a live account of the same person (`canonicalIdentity`):
 * what makes a name taken at registration (docs/decisions/canonical-identity.md).
 */
export async function findUserByIdentity(db: Executor, username: string, identity: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      sql`${users.username} = ${username} or (${users.canonicalIdentity} = ${identity} and ${users.deletedAt} is null)`,
    )
    .limit(1);
  return row;
}

/** Serialises registrations of one identity to the end of the caller's transaction. */
export async function lockIdentity(db: Executor, identity: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`identity:${identity}`}))`);
}

export async function findUserById(db: Executor, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/**
 * The user row under a share lock, so an account deletion (which locks it for update) waits for the
 * caller's transaction or goes first: a credit never lands in a wallet deleted meanwhile.
 */
export async function lockUserShared(db: Executor, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('share');
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

/** The user row, locked, if not deleted already. */
export async function lockLiveUser(db: Executor, userId: number) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), sql`${users.deletedAt} is null`))
    .limit(1)
    .for('update');
  return row;
}

/**
 * The user row of a deleted account (docs/decisions/account-deletion.md): it stays as the ledger's
 * anonymous owner (`deleted-<id>`, no password, an invite code no one can type).
 */
export async function anonymiseUser(db: Executor, id: number, at: Date) {
  await db
    .update(users)
    .set({
      username: `deleted-${id}`,
      // Not an argon2 hash: nothing verifies against it.
      passwordHash: '!deleted',
      // Longer than any invite code a form accepts (32), so no one can register under this account.
      inviteCode: `deleted-${id}-${randomBytes(16).toString('hex')}`,
      canonicalIdentity: null,
      frozen: true,
      deletedAt: at,
    })
    .where(eq(users.id, id));
}

/** An operator's change of a user's role or frozen flag. */
export async function updateUser(db: Executor, userId: number, values: { role?: Role; frozen?: boolean }) {
  await db.update(users).set(values).where(eq(users.id, userId));
}

/** Marks a user as a duplicate identity; answers the user's row before, if any. */
export async function markDuplicateIdentity(db: Executor, userId: number) {
  const [before] = await db
    .select({ id: users.id, returningIdentity: users.returningIdentity })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!before) return undefined;
  if (!before.returningIdentity) await db.update(users).set({ returningIdentity: true }).where(eq(users.id, userId));
  return before;
}

/** When each of the user's invitees joined, oldest first (the data export). */
export async function inviteeJoinDates(db: Executor, inviterId: number) {
  return db
    .select({ createdAt: users.createdAt })
    .from(users)
    .where(eq(users.inviterId, inviterId))
    .orderBy(asc(users.createdAt));
}

/**
 * Locks the user's row FOR NO KEY UPDATE: serialises one user's changes elsewhere (their payout
 * accounts' single default and count limit) without blocking inserts that reference the user.
 */
export async function lockUserNoKeyUpdate(db: Executor, userId: number) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}
