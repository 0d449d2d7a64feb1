import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { jobs, pushSubscriptions } from '../db/schema';

/**
 * Web Push jobs (docs/decisions/web-push.md): features enqueue a push in the transaction of the change it reports; the
 * push feature (features/push) runs the jobs. Here, below the features, so that notify() and any
 * feature can enqueue one.
 */

/** Job kinds of the push feature. */
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
  | {
      source: 'notice';
      noticeId: number;
      /** English title, and its translations by locale (each subscription gets its own language). */
      title: string;
      titles?: Record<string, string>;
      url: string;
      tag: string;
    };

/**
 * One `push.deliver` job per subscription of the users chosen by `users` (one user's id, or every
 * user), in the caller's transaction: the pushes exist exactly when the change they report commits.
 * `cause` + the subscription id is the dedupe key, so a replayed cause pushes nothing twice.
 */
export async function enqueueDeliveries(db: Executor, input: Deliveries) {
  await db.execute(deliveriesInsert(input));
}

export interface Deliveries {
  users: number | 'all';
  cause: string;
  content: PushContent;
  runAt?: Date;
}

/**
 * The insert of `enqueueDeliveries`, unrun: for a data-modifying CTE in the statement of the change it
 * reports; `when` (a condition on that statement's other parts) can make it insert nothing.
 */
export function deliveriesInsert(input: Deliveries, when: SQL = sql`true`): SQL {
  const who = input.users === 'all' ? sql`true` : sql`${pushSubscriptions.userId} = ${input.users}`;
  return sql`
    insert into ${jobs} (kind, dedupe_key, payload, run_at)
    select ${PUSH_DELIVER}::text, ${`push:${input.cause}:`}::text || ${pushSubscriptions.id}::text,
           ${JSON.stringify(input.content)}::jsonb || jsonb_build_object('subscriptionId', ${pushSubscriptions.id}),
           ${input.runAt ? sql`${input.runAt.toISOString()}::timestamptz` : sql`now()`}
    from ${pushSubscriptions}
    where ${who} and ${when}
    on conflict (dedupe_key) do nothing`;
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
