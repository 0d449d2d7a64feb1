import type { InboxKind } from '@kamai/contract';
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, not, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { noticeReads, notices } from '../../db/schema';
import {
  countUnreadNotifications,
  markNotificationsSeen,
  notificationInboxPart,
} from '../../platform/notifications.queries';

export type NoticeRow = typeof notices.$inferSelect;
export type NoticeState = 'draft' | 'scheduled' | 'published';

/** Keyset position in the inbox: pinned, time in microseconds, kind rank (notice 1), id; all descending. */
export interface InboxCursor {
  pinned: boolean;
  atUs: string;
  rank: number;
  id: number;
}

export interface InboxRow extends InboxCursor {
  kind: InboxKind;
  title: string;
  body: string;
  /** Notices: the operator's translations (English in title/body); empty for notifications. */
  titles: Record<string, string>;
  bodies: Record<string, string>;
  imageUrl: string | null;
  type: string | null;
  params: Record<string, string | number | null> | null;
  read: boolean;
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;
/** A jsonb column read through raw SQL: an object (both drivers parse jsonb), else empty. */
function jsonObject(value: unknown): Record<string, string> {
  if (typeof value === 'string') return jsonObject(JSON.parse(value));
  return value && typeof value === 'object' ? (value as Record<string, string>) : {};
}

/**
 * Published notices (their time come) and the user's own notifications, in one keyset-ordered list.
 * A notice counts as read once opened, or when it was published before the user joined.
 */
export async function listInbox(
  db: Executor,
  input: { userId: number; joinedAt: Date; now: Date; kind?: InboxKind; after?: InboxCursor; limit: number },
) {
  const now = input.now.toISOString();
  const noticePart = sql`
    select 'notice' as kind, 1 as rank, n.id, n.title, n.body, n.titles, n.bodies, n.image_url, n.pinned,
      (extract(epoch from n.published_at) * 1000000)::bigint as at_us, null::text as type, null::jsonb as params,
      (r.user_id is not null or n.published_at < ${input.joinedAt.toISOString()}::timestamptz) as read
    from ${notices} n left join ${noticeReads} r on r.notice_id = n.id and r.user_id = ${input.userId}
    where n.published and n.published_at <= ${now}::timestamptz`;
  const notificationPart = notificationInboxPart(input.userId);
  const parts =
    input.kind === 'notice'
      ? noticePart
      : input.kind === 'notification'
        ? notificationPart
        : sql`${noticePart} union all ${notificationPart}`;
  const after = input.after;
  const where = after
    ? sql`where (x.pinned, x.at_us, x.rank, x.id) < (${after.pinned}, ${after.atUs}::bigint, ${after.rank}, ${after.id})`
    : sql``;
  const result = await db.execute(sql`
    select x.*, x.at_us::text as at_text from (${parts}) x ${where}
    order by x.pinned desc, x.at_us desc, x.rank desc, x.id desc
    limit ${input.limit}`);
  return rowsOf(result).map(
    (r): InboxRow => ({
      kind: r.kind as InboxKind,
      rank: Number(r.rank),
      id: Number(r.id),
      title: String(r.title),
      body: String(r.body),
      titles: jsonObject(r.titles),
      bodies: jsonObject(r.bodies),
      imageUrl: r.image_url === null ? null : String(r.image_url),
      pinned: Boolean(r.pinned),
      atUs: String(r.at_text),
      type: r.type === null ? null : String(r.type),
      params: (r.params ?? null) as InboxRow['params'],
      read: Boolean(r.read),
    }),
  );
}

export async function findVisibleNotice(db: Executor, id: number, now: Date) {
  const [row] = await db
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), eq(notices.published, true), lte(notices.publishedAt, now)))
    .limit(1);
  return row;
}

export async function markNoticeRead(db: Executor, userId: number, noticeId: number, now: Date) {
  await db.insert(noticeReads).values({ userId, noticeId, readAt: now }).onConflictDoNothing();
}

/**
 * Marks read, for the user, the published notices among `noticeIds` and the user's own notifications
 * among `notificationIds`; other ids (unpublished, someone else's, unknown) change nothing.
 */
export async function markSeen(
  db: Executor,
  userId: number,
  noticeIds: number[],
  notificationIds: number[],
  now: Date,
) {
  if (noticeIds.length > 0) {
    await db
      .insert(noticeReads)
      .select(
        db
          .select({
            userId: sql<number>`${userId}::bigint`.as('user_id'),
            noticeId: notices.id,
            readAt: sql<Date>`${now.toISOString()}::timestamptz`.as('read_at'),
          })
          .from(notices)
          .where(and(inArray(notices.id, noticeIds), eq(notices.published, true), lte(notices.publishedAt, now))),
      )
      .onConflictDoNothing();
  }
  await markNotificationsSeen(db, userId, notificationIds, now);
}

export async function countUnread(db: Executor, userId: number, joinedAt: Date, now: Date) {
  const [noticeCount] = await db
    .select({ n: count() })
    .from(notices)
    .where(
      and(
        eq(notices.published, true),
        lte(notices.publishedAt, now),
        gte(notices.publishedAt, joinedAt),
        notExists(
          db
            .select({ one: sql`1` })
            .from(noticeReads)
            .where(and(eq(noticeReads.noticeId, notices.id), eq(noticeReads.userId, userId))),
        ),
      ),
    );
  return { notices: noticeCount?.n ?? 0, notifications: await countUnreadNotifications(db, userId) };
}

export async function findNotice(db: Executor, id: number, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(notices).where(eq(notices.id, id)).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertNotice(db: Executor, values: typeof notices.$inferInsert) {
  const [row] = await db.insert(notices).values(values).returning();
  if (!row) throw new Error('insert notices returned no row');
  return row;
}

export async function updateNotice(db: Executor, id: number, patch: Partial<typeof notices.$inferInsert>) {
  const [row] = await db.update(notices).set(patch).where(eq(notices.id, id)).returning();
  if (!row) throw new Error(`notice ${id} vanished`);
  return row;
}

export async function deleteNotice(db: Executor, id: number) {
  await db.delete(notices).where(eq(notices.id, id));
}

function stateFilter(state: NoticeState | undefined, now: Date) {
  if (state === 'draft') return not(notices.published);
  if (state === 'scheduled') return and(eq(notices.published, true), gt(notices.publishedAt, now));
  if (state === 'published') return and(eq(notices.published, true), lte(notices.publishedAt, now));
  return undefined;
}

/** Every notice, newest first, with how many users opened it. */
export async function listNotices(
  db: Executor,
  filter: { state?: NoticeState; now: Date; beforeId?: number; limit: number; id?: number },
) {
  return db
    .select({
      notice: notices,
      readCount: sql<number>`(select count(*)::int from ${noticeReads} r where r.notice_id = ${notices.id})`,
    })
    .from(notices)
    .where(
      and(
        stateFilter(filter.state, filter.now),
        filter.id === undefined ? undefined : eq(notices.id, filter.id),
        filter.beforeId === undefined ? undefined : lt(notices.id, filter.beforeId),
      ),
    )
    .orderBy(desc(notices.id))
    .limit(filter.limit);
}

/** A deleted account's notice reads (docs/decisions/account-deletion.md). */
export async function deleteUserNoticeReads(db: Executor, userId: number) {
  await db.delete(noticeReads).where(eq(noticeReads.userId, userId));
}

/** The notices the user opened, with their titles, in reading order (the data export). */
export async function noticeReadsOf(db: Executor, userId: number) {
  return db
    .select({ noticeId: noticeReads.noticeId, title: notices.title, readAt: noticeReads.readAt })
    .from(noticeReads)
    .innerJoin(notices, eq(notices.id, noticeReads.noticeId))
    .where(eq(noticeReads.userId, userId))
    .orderBy(asc(noticeReads.readAt));
}

/** The notice a `push.notice` job announces: its titles and whether it is still published. */
export async function noticeForPush(db: Executor, id: number) {
  const [row] = await db
    .select({
      title: notices.title,
      titles: notices.titles,
      published: notices.published,
      publishedAt: notices.publishedAt,
    })
    .from(notices)
    .where(eq(notices.id, id))
    .limit(1);
  return row;
}
