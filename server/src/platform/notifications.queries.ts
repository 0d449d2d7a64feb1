import { type NotificationKind, PUSH_PATHS } from '@kamai/contract';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { notifications } from '../db/schema';
import { deliveriesInsert } from './push.queries';

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

/**
 * Adds a notification for a user inside the caller's transaction, so it exists exactly when the change
 * it reports does, and a push of it to each of the user's devices (sent by the jobs worker after the
 * commit). A second call with the same dedupe key does nothing. One statement.
 */
export async function notify(db: Executor, notification: NewNotification): Promise<void> {
  await db
    .with(...notificationWrites(db, notification))
    .select({ one: sql`1` })
    .from(sql`(select 1) as one`);
}

/** Where a tap on the notification's push opens the app: the complaint, the withdrawals or the income list. */
function pushUrlOf({ kind, params }: NewNotification): string {
  if (kind.startsWith('complaint_')) return `${PUSH_PATHS.complaint}?id=${params.complaintId}`;
  return kind.startsWith('withdrawal_') ? PUSH_PATHS.withdrawals : PUSH_PATHS.income;
}

/**
 * `notify`'s writes as data-modifying CTEs, for the statement of the change the notification reports:
 * the notification, and its pushes only when the notification is new.
 */
export function notificationWrites(db: Executor, notification: NewNotification) {
  const added = db
    .$with('notified')
    .as(
      db
        .insert(notifications)
        .values(notification)
        .onConflictDoNothing({ target: notifications.dedupeKey })
        .returning({ id: notifications.id }),
    );
  const withdrawalId = notification.params.withdrawalId;
  const pushed = db.$with('notified_push', {}).as(
    deliveriesInsert(
      {
        users: notification.userId,
        cause: notification.dedupeKey,
        content: {
          source: 'notification',
          kind: notification.kind,
          params: notification.params,
          url: pushUrlOf(notification),
          // One slot per withdrawal on the device: "paid" replaces "approved".
          tag: withdrawalId === undefined ? notification.dedupeKey : `withdrawal:${withdrawalId}`,
        },
      },
      sql`exists (select 1 from ${sql.identifier('notified')})`,
    ),
  );
  return [added, pushed];
}

/** A deleted account's notifications (docs/decisions/account-deletion.md). */
export async function deleteUserNotifications(db: Executor, userId: number) {
  await db.delete(notifications).where(eq(notifications.userId, userId));
}
