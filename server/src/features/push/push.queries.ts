import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { pushSubscriptions } from '../../db/schema';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Saves a browser's subscription for `userId`: a known endpoint moves to this user (the browser is now
 * signed in as them) with its new keys and language.
 */
export async function upsertSubscription(
  db: Executor,
  row: { userId: number; endpoint: string; p256dh: string; auth: string; locale: string; at: Date },
) {
  await db
    .insert(pushSubscriptions)
    .values({ ...row, createdAt: row.at, updatedAt: row.at })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth, locale: row.locale, updatedAt: row.at },
    });
}

/** Keeps the user's `keep` most recently saved subscriptions and deletes the rest. */
export async function trimSubscriptions(db: Executor, userId: number, keep: number) {
  const newest = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(sql`${pushSubscriptions.updatedAt} desc`, sql`${pushSubscriptions.id} desc`)
    .limit(keep);
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, newest)));
}

export async function deleteUserSubscription(db: Executor, userId: number, endpoint: string) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

export async function deleteSubscription(db: Executor, id: number) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function findSubscription(db: Executor, id: number): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
  return row;
}

export async function listUserSubscriptions(db: Executor, userId: number) {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.id));
}

/** A deleted account's push subscriptions (docs/decisions/account-deletion.md). */
export async function deleteUserSubscriptions(db: Executor, userId: number) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}
