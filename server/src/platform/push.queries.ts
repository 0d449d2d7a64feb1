import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import type { StatementPart } from '../db/prepared';
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
  const { users, cause, content, runAt } = deliveryValues(input);
  const value = (v: string | number | undefined) => (v === undefined ? undefined : sql`${v}`);
  await db.execute(
    deliveriesSql(
      { users: value(users), cause: sql`${cause}`, content: sql`${content}`, runAt: value(runAt) },
      sql`true`,
    ),
  );
}

export interface Deliveries {
  users: number | 'all';
  cause: string;
  content: PushContent;
  runAt?: Date;
}

/** The values of the deliveries' insert: the user (none: every user), the key's start, the content as JSON, the time. */
function deliveryValues(input: Deliveries) {
  return {
    users: input.users === 'all' ? undefined : input.users,
    cause: `push:${input.cause}:`,
    content: JSON.stringify(input.content),
    runAt: input.runAt?.toISOString(),
  };
}

function deliveriesSql(v: { users?: SQL; cause: SQL; content: SQL; runAt?: SQL }, when: SQL): SQL {
  const who = v.users === undefined ? sql`true` : sql`${pushSubscriptions.userId} = ${v.users}`;
  return sql`
    insert into ${jobs} (kind, dedupe_key, payload, run_at)
    select ${PUSH_DELIVER}::text, ${v.cause}::text || ${pushSubscriptions.id}::text,
           ${v.content}::jsonb || jsonb_build_object('subscriptionId', ${pushSubscriptions.id}),
           ${v.runAt ? sql`${v.runAt}::timestamptz` : sql`now()`}
    from ${pushSubscriptions}
    where ${who} and ${when}
    on conflict (dedupe_key) do nothing`;
}

/**
 * The insert of `enqueueDeliveries` as the CTE `name` of a statement built once per shape
 * (`builtPerShape`), in the statement of the change it reports: the user, the key, the content (one
 * JSON text) and the time are placeholders; `when`, a condition on that statement's other parts (it can
 * make it insert nothing), is built with them and holds no value.
 */
export function deliveriesPart(name: string, input: Deliveries, when: (db: Executor) => SQL): StatementPart {
  const values = deliveryValues(input);
  const params: Record<string, unknown> = {};
  const param = (key: keyof typeof values, value: string | number) => {
    params[`${name}_${key}`] = value;
    return sql`${sql.placeholder(`${name}_${key}`)}`;
  };
  const v = {
    users: values.users === undefined ? undefined : param('users', values.users),
    cause: param('cause', values.cause),
    content: param('content', values.content),
    runAt: values.runAt === undefined ? undefined : param('runAt', values.runAt),
  };
  return {
    shape: `${name}(${Object.keys(params).join(',')})`,
    params,
    ctes: (db) => [db.$with(name, {}).as(deliveriesSql(v, when(db)))],
  };
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
