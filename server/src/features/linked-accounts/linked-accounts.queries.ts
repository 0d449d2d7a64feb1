import type { LinkedStatus } from '@kamai/contract';
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { linkedAccountEvents, linkedAccounts, linkedPairings, users } from '../../db/schema';

export type LinkedAccountRow = typeof linkedAccounts.$inferSelect;
export type LinkedAccountPatch = Partial<typeof linkedAccounts.$inferInsert>;
export type PairingRow = typeof linkedPairings.$inferSelect;
export type NewEvent = typeof linkedAccountEvents.$inferInsert;
export type EventRow = typeof linkedAccountEvents.$inferSelect;

export async function findAccountByPhone(db: Executor, phone: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(linkedAccounts).where(eq(linkedAccounts.phone, phone)).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** Inserts a newly linked number; undefined when the number was linked meanwhile (unique phone). */
export async function insertAccount(db: Executor, values: typeof linkedAccounts.$inferInsert) {
  const [row] = await db.insert(linkedAccounts).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateAccount(db: Executor, id: number, patch: LinkedAccountPatch) {
  const [row] = await db.update(linkedAccounts).set(patch).where(eq(linkedAccounts.id, id)).returning();
  if (!row) throw new Error(`linked account ${id} vanished`);
  return row;
}

export async function listAccounts(
  db: Executor,
  filter: { userId?: number; status?: LinkedStatus; phone?: string; beforeId?: number; limit: number },
) {
  return db
    .select({ account: linkedAccounts, username: users.username })
    .from(linkedAccounts)
    .innerJoin(users, eq(users.id, linkedAccounts.userId))
    .where(
      and(
        filter.userId === undefined ? undefined : eq(linkedAccounts.userId, filter.userId),
        filter.status === undefined ? undefined : eq(linkedAccounts.status, filter.status),
        filter.phone === undefined ? undefined : eq(linkedAccounts.phone, filter.phone),
        filter.beforeId === undefined ? undefined : lt(linkedAccounts.id, filter.beforeId),
      ),
    )
    .orderBy(desc(linkedAccounts.id))
    .limit(filter.limit);
}

export async function insertEvent(db: Executor, event: NewEvent) {
  await db.insert(linkedAccountEvents).values(event);
}

export async function listEvents(db: Executor, accountId: number, limit: number, beforeId?: number) {
  return db
    .select()
    .from(linkedAccountEvents)
    .where(
      and(
        eq(linkedAccountEvents.accountId, accountId),
        beforeId === undefined ? undefined : lt(linkedAccountEvents.id, beforeId),
      ),
    )
    .orderBy(desc(linkedAccountEvents.id))
    .limit(limit);
}

export async function insertPairing(db: Executor, values: typeof linkedPairings.$inferInsert) {
  await db.insert(linkedPairings).values(values);
}

/** The newest pairing one user asked for one number, completed or not. */
export async function lastPairingFor(db: Executor, userId: number, phone: string) {
  const [row] = await db
    .select()
    .from(linkedPairings)
    .where(and(eq(linkedPairings.phone, phone), eq(linkedPairings.userId, userId)))
    .orderBy(desc(linkedPairings.id))
    .limit(1);
  return row;
}

export async function countPairingsSince(db: Executor, userId: number, since: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(linkedPairings)
    .where(and(eq(linkedPairings.userId, userId), gte(linkedPairings.createdAt, since)));
  return row?.n ?? 0;
}

/** Of these numbers, the ones with a code pairing (by `userId`, or anyone) still open at `now`. */
export async function phonesWithPendingCode(db: Executor, phones: string[], now: Date, userId?: number) {
  if (phones.length === 0) return new Set<string>();
  const rows = await db
    .selectDistinct({ phone: linkedPairings.phone })
    .from(linkedPairings)
    .where(
      and(
        userId === undefined ? undefined : eq(linkedPairings.userId, userId),
        inArray(linkedPairings.phone, phones),
        isNull(linkedPairings.completedAt),
        gt(linkedPairings.expiresAt, now),
      ),
    );
  return new Set(rows.map((r) => r.phone).filter((p): p is string => p !== null));
}

/** The open code pairing of a number (exactly `code` if given, else the newest), locked. */
export async function lockOpenCodePairing(db: Executor, phone: string, now: Date, code?: string) {
  const [row] = await db
    .select()
    .from(linkedPairings)
    .where(
      and(
        eq(linkedPairings.method, 'code'),
        eq(linkedPairings.phone, phone),
        code === undefined ? undefined : eq(linkedPairings.ref, code),
        isNull(linkedPairings.completedAt),
        gt(linkedPairings.expiresAt, now),
      ),
    )
    .orderBy(desc(linkedPairings.id))
    .limit(1)
    .for('update');
  return row;
}

export async function findQrPairing(db: Executor, ref: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(linkedPairings)
    .where(and(eq(linkedPairings.method, 'qr'), eq(linkedPairings.ref, ref)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** Marks a pairing completed by `phone`, and closes the user's other open pairings of that number. */
export async function completePairings(db: Executor, pairing: PairingRow, phone: string, now: Date) {
  await db.update(linkedPairings).set({ phone, completedAt: now }).where(eq(linkedPairings.id, pairing.id));
  await db
    .update(linkedPairings)
    .set({ completedAt: now })
    .where(
      and(
        eq(linkedPairings.userId, pairing.userId),
        eq(linkedPairings.phone, phone),
        isNull(linkedPairings.completedAt),
      ),
    );
}

/** A deleted account's linked accounts lose their phone and go offline; its pairings go. */
export async function forgetUserLinkedAccounts(db: Executor, userId: number) {
  await db
    .update(linkedAccounts)
    .set({ phone: sql`'deleted-' || ${linkedAccounts.id}`, status: 'offline', onlineSince: null })
    .where(eq(linkedAccounts.userId, userId));
  await db.delete(linkedPairings).where(eq(linkedPairings.userId, userId));
}
