import {
  type AdminComplaintFilter,
  type AdminComplaintItem,
  type AdminComplaintSummary,
  type ComplaintOutcome,
  type ComplaintSubjectView,
  complaintNumber,
  formatRupees,
  type NotificationKind,
  type PageQuery,
} from '@kamai/contract';
import type { Db, Executor, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { notify } from '../../platform/notifications.queries';
import type { ReplicaReads } from '../../platform/replica-reads';
import type { Actor } from '../../platform/routes';
import { staleRefusal } from '../../platform/stale';
import { grievanceOfficerOf } from '../account';
import { maskAccountNo } from '../payout-accounts';
import * as q from './complaints.queries';
import { detailOf, overdueOf } from './complaints.view';

type Row = q.ComplaintRow;

/** The linked objects of a page of complaints, as the console shows them beside each. */
async function subjectViews(db: Executor, rows: Row[]) {
  const idsOf = (kind: Row['subjectKind']) =>
    rows.flatMap((r) => (r.subjectKind === kind && r.subjectId !== null ? [r.subjectId] : []));
  const views = new Map<string, ComplaintSubjectView>();
  for (const w of await q.withdrawalsByIds(db, idsOf('withdrawal'))) {
    views.set(`withdrawal:${w.id}`, {
      kind: 'withdrawal',
      id: w.id,
      found: true,
      amount: formatRupees(w.amount),
      state: w.state,
      account: `${w.accountType} ${maskAccountNo(w.accountType, w.accountNo)}`,
      createdAt: w.createdAt.toISOString(),
    });
  }
  for (const e of await q.entriesByIds(db, idsOf('entry'))) {
    views.set(`entry:${e.id}`, {
      kind: 'entry',
      id: e.id,
      found: true,
      amount: formatRupees(e.amount),
      state: e.type,
      account: null,
      createdAt: e.createdAt.toISOString(),
    });
  }
  for (const a of await q.payoutAccountsByIds(db, idsOf('payout_account'))) {
    views.set(`payout_account:${a.id}`, {
      kind: 'payout_account',
      id: a.id,
      found: true,
      amount: null,
      state: null,
      account: `${a.accountType} ${maskAccountNo(a.accountType, a.accountNo)}`,
      createdAt: a.createdAt.toISOString(),
    });
  }
  return (row: Row): ComplaintSubjectView | null => {
    if (!row.subjectKind || row.subjectId === null) return null;
    const none = { found: false, amount: null, state: null, account: null, createdAt: null };
    return views.get(`${row.subjectKind}:${row.subjectId}`) ?? { kind: row.subjectKind, id: row.subjectId, ...none };
  };
}

/** Closed or acknowledged meanwhile by another operator: the refusal says by whom and when. */
async function staleOf(tx: Tx, row: Row, key: 'complaint_already_closed' | 'complaint_acknowledged_already') {
  const event = await q.lastEventOf(tx, row.id, row.state === 'closed' ? 'closed' : 'acknowledged');
  return staleRefusal(tx, key, {
    state: row.state,
    byId: event?.actorId ?? null,
    at: event?.createdAt ?? (row.state === 'closed' ? row.closedAt : row.acknowledgedAt),
  });
}

/**
 * The operators' side of complaints (docs/decisions/grievances.md): the queue with each complaint's
 * linked object, deadlines and overdue flags; acknowledge, reply in the user's language, close with
 * an outcome. Each action is one transaction with its history row, the user's notification (and so
 * its Web Push) and an audit row.
 */
export function createComplaintsAdmin({ db, replica, now }: { db: Db; replica: ReplicaReads; now: () => Date }) {
  async function items(
    rows: { complaint: Row; username: string }[],
    from: Executor = db,
  ): Promise<AdminComplaintItem[]> {
    const complaints = rows.map((r) => r.complaint);
    const events = await q.eventsOf(
      from,
      complaints.map((c) => c.id),
    );
    const subjectOf = await subjectViews(from, complaints);
    const at = now();
    return rows.map(({ complaint, username }) => ({
      ...detailOf(complaint, events),
      userId: complaint.userId,
      username,
      subjectView: subjectOf(complaint),
      ...overdueOf(complaint, at),
    }));
  }

  /**
   * The queue: on a replica when one is caught up, unless `reader` changed something just now (an
   * action on a complaint that changed meanwhile is refused with its current state).
   */
  async function list(query: PageQuery & { state: AdminComplaintFilter }, reader: number) {
    const after = decodeCursor(query.cursor, isRowId);
    const at = now();
    return replica.read(reader, async (from) => {
      const rows = await q.adminList(from, query.state, at, query.limit + 1, after);
      return keysetPage(await items(rows, from), query.limit, (last) => last.id);
    });
  }

  async function summary(): Promise<AdminComplaintSummary> {
    const figures = await q.complaintFigures(db, now());
    return { ...figures, officerSet: (await grievanceOfficerOf(db)) !== null };
  }

  async function one(id: number): Promise<AdminComplaintItem> {
    const [item] = await items(await q.adminOne(db, id));
    if (!item) throw new AppError('complaint_not_found');
    return item;
  }

  /** Locks an unclosed complaint, runs `change`, tells the user (`kind`) and audits; one transaction. */
  async function act(
    actor: Actor,
    id: number,
    action: string,
    kind: NotificationKind,
    change: (tx: Tx, row: Row, at: Date) => Promise<{ row: Row; eventId: number }>,
  ) {
    await db.transaction(async (tx) => {
      const before = await q.getComplaint(tx, id, { forUpdate: true });
      if (!before) throw new AppError('complaint_not_found');
      if (before.state === 'closed') throw await staleOf(tx, before, 'complaint_already_closed');
      const at = now();
      const { row, eventId } = await change(tx, before, at);
      await notify(tx, {
        userId: row.userId,
        kind,
        params: { complaintId: row.id, number: complaintNumber(row.id) },
        dedupeKey: `complaint:${row.id}:${eventId}`,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action,
        target: `complaint:${row.id}`,
        before: { state: before.state },
        after: { state: row.state, outcome: row.outcome, eventId },
        requestId: actor.requestId,
      });
    });
    return one(id);
  }

  /** An operator's acknowledgement: the first event of a complaint still open. */
  async function acknowledgeIn(tx: Tx, row: Row, actorId: number, at: Date) {
    const event = await q.insertEvent(tx, { complaintId: row.id, kind: 'acknowledged', actorId, createdAt: at });
    const updated = await q.updateComplaint(tx, row.id, { state: 'acknowledged', acknowledgedAt: at, updatedAt: at });
    return { row: updated, eventId: event.id };
  }

  function acknowledge(actor: Actor, { id }: { id: number }) {
    return act(actor, id, 'complaint.acknowledge', 'complaint_acknowledged', async (tx, row, at) => {
      if (row.state !== 'open') throw await staleOf(tx, row, 'complaint_acknowledged_already');
      return acknowledgeIn(tx, row, actor.id, at);
    });
  }

  /** A reply; one to a complaint nobody acknowledged yet acknowledges it first (a reply is an answer). */
  function reply(actor: Actor, { id, text }: { id: number; text: string }) {
    return act(actor, id, 'complaint.reply', 'complaint_replied', async (tx, row, at) => {
      const current = row.state === 'open' ? (await acknowledgeIn(tx, row, actor.id, at)).row : row;
      const event = await q.insertEvent(tx, {
        complaintId: row.id,
        kind: 'reply',
        actorId: actor.id,
        text,
        createdAt: at,
      });
      return { row: current, eventId: event.id };
    });
  }

  function close(actor: Actor, { id, outcome, text }: { id: number; outcome: ComplaintOutcome; text: string }) {
    return act(actor, id, 'complaint.close', 'complaint_closed', async (tx, row, at) => {
      const event = await q.insertEvent(tx, {
        complaintId: row.id,
        kind: 'closed',
        actorId: actor.id,
        text,
        outcome,
        createdAt: at,
      });
      const updated = await q.updateComplaint(tx, row.id, {
        state: 'closed',
        outcome,
        closedAt: at,
        acknowledgedAt: row.acknowledgedAt ?? at,
        updatedAt: at,
      });
      return { row: updated, eventId: event.id };
    });
  }

  return { list, summary, acknowledge, reply, close };
}
