import { type NotificationKind, PUSH_PATHS } from '@kamai/contract';
import { and, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { builtPerShape, rowPlaceholders, type StatementPart } from '../db/prepared';
import { notifications } from '../db/schema';
import { deliveriesPart } from './push.queries';

/** What a notification says; the client turns `kind` + `params` into text in the reader's language. */
export type { NotificationKind };

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  /** Plain values: amounts as rupee strings, reasons, ids. */
  params: Record<string, string | number | null>;
  /** Unique per cause (`withdrawal:17:paid`): a replayed cause notifies once. */
  dedupeKey: string;
}

const runNotify = builtPerShape('kamai_notify');

/**
 * Adds a notification for a user inside the caller's transaction, so it exists exactly when the change
 * it reports does, and a push of it to each of the user's devices (sent by the jobs worker after the
 * commit). A second call with the same dedupe key does nothing. One statement, built once.
 */
export async function notify(db: Executor, notification: NewNotification): Promise<void> {
  const part = notificationPart(notification);
  await runNotify(
    db,
    part.shape,
    (db) =>
      db
        .with(...part.ctes(db))
        .select({ one: sql`1` })
        .from(sql`(select 1) as one`),
    part.params,
  );
}

/** Where a tap on the notification's push opens the app: the complaint, the withdrawals or the income list. */
function pushUrlOf({ kind, params }: NewNotification): string {
  if (kind.startsWith('complaint_')) return `${PUSH_PATHS.complaint}?id=${params.complaintId}`;
  return kind.startsWith('withdrawal_') ? PUSH_PATHS.withdrawals : PUSH_PATHS.income;
}

/**
 * `notify`'s writes as data-modifying CTEs (`notified`, `notified_push`), for the statement of the
 * change the notification reports, built once per shape (`builtPerShape`): the notification, and its
 * pushes only when the notification is new. Every value is a placeholder; the push's content is one
 * JSON text.
 */
export function notificationPart(notification: NewNotification): StatementPart {
  const { userId, kind, params: values, dedupeKey } = notification;
  const added = rowPlaceholders(notifications, 'notified', { userId, kind, params: values, dedupeKey });
  const withdrawalId = values.withdrawalId;
  const pushed = deliveriesPart(
    'notified_push',
    {
      users: userId,
      cause: dedupeKey,
      content: {
        source: 'notification',
        kind,
        params: values,
        url: pushUrlOf(notification),
        // One slot per withdrawal on the device: "paid" replaces "approved".
        tag: withdrawalId === undefined ? dedupeKey : `withdrawal:${withdrawalId}`,
      },
    },
    () => sql`exists (select 1 from ${sql.identifier('notified')})`,
  );
  return {
    shape: `${added.shape};${pushed.shape}`,
    params: { ...added.params, ...pushed.params },
    ctes: (db) => [
      db
        .$with('notified')
        .as(
          db
            .insert(notifications)
            .values(added.row())
            .onConflictDoNothing({ target: notifications.dedupeKey })
            .returning({ id: notifications.id }),
        ),
      ...pushed.ctes(db),
    ],
  };
}

/** A deleted account's notifications (docs/decisions/account-deletion.md). */
export async function deleteUserNotifications(db: Executor, userId: number) {
  await db.delete(notifications).where(eq(notifications.userId, userId));
}

/**
 * The user's notifications as rows of the inbox's union with the notices (features/notices lists
 * both in one keyset-ordered query): the notices part's columns, in its order.
 */
export function notificationInboxPart(userId: number): SQL {
  return sql`
    select 'notification' as kind, 0 as rank, f.id, '' as title, '' as body, '{}'::jsonb as titles,
      '{}'::jsonb as bodies, null::text as image_url, false as pinned,
      (extract(epoch from f.created_at) * 1000000)::bigint as at_us, f.kind as type, f.params,
      f.read_at is not null as read
    from ${notifications} f where f.user_id = ${userId}`;
}

/** Marks read the user's own notifications among `ids`; others' ids change nothing. */
export async function markNotificationsSeen(db: Executor, userId: number, ids: number[], now: Date) {
  if (ids.length === 0) return;
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(inArray(notifications.id, ids), eq(notifications.userId, userId), isNull(notifications.readAt)));
}

export async function findNotification(db: Executor, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .limit(1);
  return row;
}

export async function markNotificationRead(db: Executor, id: number, now: Date) {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.id, id), isNull(notifications.readAt)));
}

export async function countUnreadNotifications(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}
