import type { NotificationKind } from '@kamai/contract';
import type { Executor } from '../db/client';
import { notifications } from '../db/schema';

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
 * it reports does. A second call with the same dedupe key does nothing.
 */
export async function notify(db: Executor, notification: NewNotification): Promise<void> {
  await db.insert(notifications).values(notification).onConflictDoNothing({ target: notifications.dedupeKey });
}
