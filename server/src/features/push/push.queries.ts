import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { jobs, notices, pushSubscriptions } from '../../db/schema';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Job kinds of this feature. */
export const PUSH_DELIVER = 'push.deliver';
export const PUSH_NOTICE = 'push.notice';

/** What a `push.deliver` job says, besides which subscription it goes to. */
export type PushContent =
  | {
      source: 'notification';
      kind: string;
      params: Record<string, string | number | null>;
      /** The app path the notification opens, and its tag (a newer push with the same tag replaces it). */
      url: string;
      tag: string;
    }
  | { source: 'notice'; noticeId: number; title: string; url: string; tag: string };

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

/**
 * One `push.deliver` job per subscription of the users chosen by `users` (one user's id, or every
 * user), in the caller's transaction: the pushes exist exactly when the change they report commits.
 * `cause` + the subscription id is the dedupe key, so a replayed cause pushes nothing twice.
 */
export async function enqueueDeliveries(
  db: Executor,
  input: { users: number | 'all'; cause: string; content: PushContent; runAt?: Date },
) {
  const who = input.users === 'all' ? sql`true` : sql`${pushSubscriptions.userId} = ${input.users}`;
  await db.execute(sql`
    insert into ${jobs} (kind, dedupe_key, payload, run_at)
    select ${PUSH_DELIVER}::text, ${`push:${input.cause}:`}::text || ${pushSubscriptions.id}::text,
           ${JSON.stringify(input.content)}::jsonb || jsonb_build_object('subscriptionId', ${pushSubscriptions.id}),
           ${input.runAt ? sql`${input.runAt.toISOString()}::timestamptz` : sql`now()`}
    from ${pushSubscriptions}
    where ${who}
    on conflict (dedupe_key) do nothing`);
}

/** The notice's push, due when it becomes visible; a notice rescheduled later gets another job. */
export async function enqueueNoticePush(db: Executor, noticeId: number, publishedAt: Date) {
  await db
    .insert(jobs)
    .values({
      kind: PUSH_NOTICE,
      dedupeKey: `push:notice:${noticeId}:at:${publishedAt.getTime()}`,
      payload: { noticeId, publishedAt: publishedAt.toISOString() },
      runAt: publishedAt,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey });
}

/** The notice a `push.notice` job announces (read-only; the notices feature owns the table). */
export async function findNotice(db: Executor, id: number) {
  const [row] = await db
    .select({ title: notices.title, published: notices.published, publishedAt: notices.publishedAt })
    .from(notices)
    .where(eq(notices.id, id))
    .limit(1);
  return row;
}
