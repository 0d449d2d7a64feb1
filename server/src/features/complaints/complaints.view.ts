import {
  COMPLAINT_ACK_HOURS,
  COMPLAINT_RESOLVE_DAYS,
  type ComplaintDetail,
  type ComplaintEvent,
  type ComplaintItem,
  complaintNumber,
  DEFAULT_LOCALE,
  toLocale,
} from '@kamai/contract';
import type { ComplaintEventRow, ComplaintRow } from './complaints.queries';

const HOUR_MS = 3_600_000;

/** When the acknowledgement and the resolution are due: counted from when it was raised. */
export function deadlinesOf(row: Pick<ComplaintRow, 'createdAt'>) {
  const raised = row.createdAt.getTime();
  return {
    ackDueAt: new Date(raised + COMPLAINT_ACK_HOURS * HOUR_MS),
    resolveDueAt: new Date(raised + COMPLAINT_RESOLVE_DAYS * 24 * HOUR_MS),
  };
}

/** Past a deadline at `now`: not acknowledged after the first, not closed after the second. */
export function overdueOf(row: ComplaintRow, now: Date) {
  const { ackDueAt, resolveDueAt } = deadlinesOf(row);
  return {
    ackOverdue: row.state === 'open' && now > ackDueAt,
    resolutionOverdue: row.state !== 'closed' && now > resolveDueAt,
  };
}

export function itemOf(row: ComplaintRow): ComplaintItem {
  const { ackDueAt, resolveDueAt } = deadlinesOf(row);
  return {
    id: row.id,
    number: complaintNumber(row.id),
    category: row.category,
    state: row.state,
    text: row.text,
    locale: toLocale(row.locale) ?? DEFAULT_LOCALE,
    subject: row.subjectKind && row.subjectId !== null ? { kind: row.subjectKind, id: row.subjectId } : null,
    createdAt: row.createdAt.toISOString(),
    ackDueAt: ackDueAt.toISOString(),
    resolveDueAt: resolveDueAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    outcome: row.outcome,
  };
}

/** The history: raised (the user's text), then what operators did, in order. */
export function detailOf(row: ComplaintRow, events: ComplaintEventRow[]): ComplaintDetail {
  const history: ComplaintEvent[] = [
    { kind: 'raised', at: row.createdAt.toISOString(), text: row.text, outcome: null },
    ...events
      .filter((e) => e.complaintId === row.id)
      .map((e) => ({ kind: e.kind, at: e.createdAt.toISOString(), text: e.text, outcome: e.outcome })),
  ];
  return { ...itemOf(row), events: history };
}
