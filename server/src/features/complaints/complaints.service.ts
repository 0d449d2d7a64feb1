import {
  COMPLAINTS_OPEN_MAX,
  type ComplaintCategory,
  type ComplaintDetail,
  type ComplaintSubject,
  type Locale,
  type PageQuery,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import * as q from './complaints.queries';
import { detailOf, itemOf } from './complaints.view';

/**
 * The user's side of complaints (docs/decisions/grievances.md): raise one in the request's language,
 * about one of the caller's own withdrawals, wallet entries or payout accounts or in general, and read
 * them with their history.
 */
export function createComplaintsService({ db, now }: { db: Db; now: () => Date }) {
  async function raise(
    userId: number,
    body: { category: ComplaintCategory; text: string; subject?: ComplaintSubject },
    locale: Locale,
  ): Promise<ComplaintDetail> {
    const row = await db.transaction(async (tx) => {
      await q.lockUser(tx, userId);
      const subject = body.subject;
      // Someone else's object answers as one that does not exist: a complaint reveals no other user's ids.
      if (subject && !(await q.ownsSubject(tx, userId, subject.kind, subject.id))) {
        throw new AppError('complaint_subject_not_found', { fields: { subject: 'complaint_subject_not_found' } });
      }
      if ((await q.countOpenOf(tx, userId)) >= COMPLAINTS_OPEN_MAX) {
        throw new AppError('complaints_open_limit', { max: COMPLAINTS_OPEN_MAX });
      }
      const at = now();
      return q.insertComplaint(tx, {
        userId,
        category: body.category,
        text: body.text,
        locale,
        subjectKind: subject?.kind ?? null,
        subjectId: subject?.id ?? null,
        createdAt: at,
        updatedAt: at,
      });
    });
    return detailOf(row, []);
  }

  async function list(userId: number, { limit, cursor }: PageQuery) {
    const before = decodeCursor(cursor, isRowId);
    const rows = await q.listOwn(db, userId, limit + 1, before);
    return keysetPage(rows.map(itemOf), limit, (last) => last.id);
  }

  async function detail(userId: number, id: number): Promise<ComplaintDetail> {
    const row = await q.getComplaint(db, id, { userId });
    if (!row) throw new AppError('complaint_not_found');
    return detailOf(row, await q.eventsOf(db, [row.id]));
  }

  return { raise, list, detail };
}

export type ComplaintsService = ReturnType<typeof createComplaintsService>;
