import {
  type AdminNotice,
  type InboxItem,
  type InboxKind,
  type Locale,
  type MessageKey,
  NOTIFICATION_TEXT,
  noticeTextIn,
  notificationVars,
  type PageQuery,
  rejectReasonText,
  translate,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { findNotification, markNotificationRead, type NotificationKind } from '../../platform/notifications.queries';
import type { ReplicaReads } from '../../platform/replica-reads';
import { findUserById } from '../users';
import * as q from './notices.queries';

type Params = Record<string, string | number | null>;
const stringOr = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** Every kind notify() accepts has a text in the contract (a new kind without one does not build). */
const TEXTS: Record<NotificationKind, { title: MessageKey; body: MessageKey }> = NOTIFICATION_TEXT;

/** Title and body of a notification in the reader's language; an unknown kind shows its name. */
export function notificationText(type: string, params: Params, locale: Locale) {
  const text = Object.hasOwn(TEXTS, type) ? TEXTS[type as NotificationKind] : undefined;
  if (!text) return { title: type, body: '' };
  const vars = { ...notificationVars(params), reason: rejectReasonText(stringOr(params.reason), locale) ?? '' };
  return { title: translate(locale, text.title, vars), body: translate(locale, text.body, vars) };
}

const isCursor = (v: unknown): v is q.InboxCursor => {
  const c = v as q.InboxCursor;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.pinned === 'boolean' &&
    typeof c.atUs === 'string' &&
    /^-?\d{1,18}$/.test(c.atUs) &&
    (c.rank === 0 || c.rank === 1) &&
    isRowId(c.id)
  );
};

function usToIso(atUs: string): string {
  return new Date(Number(BigInt(atUs) / 1000n)).toISOString();
}

function toInboxItem(row: q.InboxRow, locale: Locale): InboxItem {
  const base = { kind: row.kind, id: row.id, imageUrl: row.imageUrl, pinned: row.pinned, read: row.read };
  if (row.kind === 'notice') {
    return {
      ...base,
      title: noticeTextIn(row.title, row.titles, locale),
      body: noticeTextIn(row.body, row.bodies, locale),
      createdAt: usToIso(row.atUs),
      notification: null,
    };
  }
  const params = row.params ?? {};
  const type = row.type ?? '';
  return {
    ...base,
    ...notificationText(type, params, locale),
    createdAt: usToIso(row.atUs),
    notification: { type, params: readerParams(params, locale) },
  };
}

/** The params the app fills its own text from: a preset reject reason already in the reader's language. */
function readerParams(params: Params, locale: Locale): Params {
  if (typeof params.reason !== 'string') return params;
  return { ...params, reason: rejectReasonText(params.reason, locale) };
}

/** /List1: operators' notices and the user's own notifications, with read state. */
export function createNoticesService({ db, replica, now }: { db: Db; replica: ReplicaReads; now: () => Date }) {
  async function joinedAt(userId: number, from: Executor = db) {
    const user = await findUserById(from, userId);
    if (!user) throw new AppError('unauthorized');
    return user.createdAt;
  }

  async function list(userId: number, query: PageQuery & { kind?: InboxKind }, locale: Locale) {
    const after = decodeCursor(query.cursor, isCursor);
    // Notices and notifications may be a moment stale (a replica), except just after the user wrote:
    // then the primary, so a notice they just marked read shows read.
    const rows = await replica.read(userId, async (from) =>
      q.listInbox(from, {
        userId,
        joinedAt: await joinedAt(userId, from),
        now: now(),
        kind: query.kind,
        after,
        limit: query.limit + 1,
      }),
    );
    const page = keysetPage(rows, query.limit, (last) => ({
      pinned: last.pinned,
      atUs: last.atUs,
      rank: last.rank,
      id: last.id,
    }));
    return { items: page.items.map((row) => toInboxItem(row, locale)), nextCursor: page.nextCursor };
  }

  /** Opens one item and marks it read (opening again changes nothing). */
  async function detail(userId: number, id: number, kind: InboxKind, locale: Locale): Promise<InboxItem> {
    const at = now();
    if (kind === 'notice') {
      const notice = await q.findVisibleNotice(db, id, at);
      if (!notice?.publishedAt) throw new AppError('notice_not_found');
      await q.markNoticeRead(db, userId, id, at);
      // A GET that writes: recorded like a write, so the list read next shows it read.
      await replica.wrote(userId);
      return {
        kind,
        id,
        title: noticeTextIn(notice.title, notice.titles, locale),
        body: noticeTextIn(notice.body, notice.bodies, locale),
        imageUrl: notice.imageUrl,
        pinned: notice.pinned,
        read: true,
        createdAt: notice.publishedAt.toISOString(),
        notification: null,
      };
    }
    const notification = await findNotification(db, userId, id);
    if (!notification) throw new AppError('notice_not_found');
    await markNotificationRead(db, id, at);
    await replica.wrote(userId);
    return {
      kind,
      id,
      ...notificationText(notification.kind, notification.params, locale),
      imageUrl: null,
      pinned: false,
      read: true,
      createdAt: notification.createdAt.toISOString(),
      notification: { type: notification.kind, params: readerParams(notification.params, locale) },
    };
  }

  async function unread(userId: number) {
    const counts = await q.countUnread(db, userId, await joinedAt(userId), now());
    return { count: counts.notices + counts.notifications, ...counts };
  }

  /**
   * Marks read what the inbox list showed the user (the badge drops once the list is seen:
   * docs/decisions/notices-and-notifications.md).
   */
  async function seen(userId: number, body: { notices: number[]; notifications: number[] }) {
    await q.markSeen(db, userId, [...new Set(body.notices)], [...new Set(body.notifications)], now());
    return unread(userId);
  }

  return { list, detail, unread, seen };
}

export type NoticesService = ReturnType<typeof createNoticesService>;

export function toAdminNotice(row: q.NoticeRow, readCount: number, at: Date): AdminNotice {
  const state = !row.published ? 'draft' : row.publishedAt && row.publishedAt > at ? 'scheduled' : 'published';
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    titles: row.titles,
    bodies: row.bodies,
    imageUrl: row.imageUrl,
    pinned: row.pinned,
    published: row.published,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    state,
    readCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
