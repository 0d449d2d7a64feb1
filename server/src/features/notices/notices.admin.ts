import type { NoticeTexts, PageQuery } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { enqueueNoticePush } from '../../platform/push.queries';
import type { ReplicaReads } from '../../platform/replica-reads';
import type { Actor } from '../../platform/routes';
import * as q from './notices.queries';
import { toAdminNotice } from './notices.service';

interface NoticeInput {
  title?: string;
  body?: string;
  titles?: NoticeTexts;
  bodies?: NoticeTexts;
  imageUrl?: string | null;
  pinned?: boolean;
  published?: boolean;
  publishedAt?: string | null;
}

/** Operators write notices; each write is audited in its own transaction. */
export function createNoticesAdmin({ db, replica, now }: { db: Db; replica: ReplicaReads; now: () => Date }) {
  /** Keeps only real translations: English lives in `title`/`body`, a blank text means "not translated". */
  function translations(texts: NoticeTexts | undefined): NoticeTexts | undefined {
    if (!texts) return undefined;
    return Object.fromEntries(Object.entries(texts).filter(([locale, text]) => locale !== 'en_US' && Boolean(text)));
  }

  /** A published notice always has a time: the one given, else the one it had, else now. */
  function publishTime(input: NoticeInput, current: Date | null, at: Date, published: boolean): Date | null {
    if (input.publishedAt) return new Date(input.publishedAt);
    if (input.publishedAt === null) return published ? at : null;
    return current ?? (published ? at : null);
  }

  async function add(actor: Actor, input: NoticeInput & { title: string; body: string }) {
    const at = now();
    // Published on save unless the operator chose a draft (drafts by default went unseen:
    // docs/decisions/notices-and-notifications.md).
    const published = input.published ?? true;
    return db.transaction(async (tx) => {
      const row = await q.insertNotice(tx, {
        title: input.title,
        body: input.body,
        titles: translations(input.titles) ?? {},
        bodies: translations(input.bodies) ?? {},
        imageUrl: input.imageUrl || null,
        pinned: input.pinned ?? false,
        published,
        publishedAt: publishTime(input, null, at, published),
        createdAt: at,
        updatedAt: at,
      });
      if (row.published && row.publishedAt) await enqueueNoticePush(tx, row.id, row.publishedAt);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'notice.add',
        target: `notice:${row.id}`,
        after: toAdminNotice(row, 0, at),
        requestId: actor.requestId,
      });
      return { id: row.id };
    });
  }

  async function edit(actor: Actor, input: NoticeInput & { id: number }) {
    const at = now();
    return db.transaction(async (tx) => {
      const before = await q.findNotice(tx, input.id, { forUpdate: true });
      if (!before) throw new AppError('notice_not_found');
      const published = input.published ?? before.published;
      const row = await q.updateNotice(tx, input.id, {
        title: input.title ?? before.title,
        body: input.body ?? before.body,
        titles: translations(input.titles) ?? before.titles,
        bodies: translations(input.bodies) ?? before.bodies,
        imageUrl: input.imageUrl === undefined ? before.imageUrl : input.imageUrl || null,
        pinned: input.pinned ?? before.pinned,
        published,
        publishedAt: publishTime(input, before.publishedAt, at, published),
        updatedAt: at,
      });
      // Pushed when it goes out: newly published or moved to another time, not on every typo fix.
      const goesOut = !before.published || before.publishedAt?.getTime() !== row.publishedAt?.getTime();
      if (row.published && row.publishedAt && goesOut) await enqueueNoticePush(tx, row.id, row.publishedAt);
      const [counted] = await q.listNotices(tx, { id: row.id, now: at, limit: 1 });
      const after = toAdminNotice(row, counted?.readCount ?? 0, at);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'notice.edit',
        target: `notice:${row.id}`,
        before: toAdminNotice(before, after.readCount, at),
        after,
        requestId: actor.requestId,
      });
      return after;
    });
  }

  async function remove(actor: Actor, id: number) {
    const at = now();
    await db.transaction(async (tx) => {
      const before = await q.findNotice(tx, id, { forUpdate: true });
      if (!before) throw new AppError('notice_not_found');
      await q.deleteNotice(tx, id);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'notice.delete',
        target: `notice:${id}`,
        before: toAdminNotice(before, 0, at),
        requestId: actor.requestId,
      });
    });
    return null;
  }

  async function detail(id: number) {
    const at = now();
    const [row] = await q.listNotices(db, { id, now: at, limit: 1 });
    if (!row) throw new AppError('notice_not_found');
    return toAdminNotice(row.notice, row.readCount, at);
  }

  /** The console's list: on a replica when one is caught up, unless `reader` changed something just now. */
  async function list(query: PageQuery & { state?: q.NoticeState }, reader: number) {
    const at = now();
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await replica.read(reader, (db) =>
      q.listNotices(db, { state: query.state, now: at, beforeId, limit: query.limit + 1 }),
    );
    const page = keysetPage(rows, query.limit, (row) => row.notice.id);
    return { items: page.items.map((r) => toAdminNotice(r.notice, r.readCount, at)), nextCursor: page.nextCursor };
  }

  return { add, edit, remove, detail, list };
}

export type NoticesAdmin = ReturnType<typeof createNoticesAdmin>;
