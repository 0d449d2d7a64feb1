import {
  type AdminComplaintFilter,
  COMPLAINT_ACK_HOURS,
  COMPLAINT_RESOLVE_DAYS,
  type ComplaintSubjectKind,
} from '@kamai/contract';
import { and, asc, desc, eq, gt, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  accounts,
  complaintEvents,
  complaints,
  entries,
  payoutAccounts,
  postings,
  users,
  withdrawals,
} from '../../db/schema';

export type ComplaintRow = typeof complaints.$inferSelect;
export type ComplaintEventRow = typeof complaintEvents.$inferSelect;

const ackDue = sql`${complaints.createdAt} + ${sql.raw(`interval '${COMPLAINT_ACK_HOURS} hours'`)}`;
const resolveDue = sql`${complaints.createdAt} + ${sql.raw(`interval '${COMPLAINT_RESOLVE_DAYS} days'`)}`;

/**
 * Past a deadline at `now`: still open after the acknowledgement's, or not closed after the
 * resolution's (docs/decisions/grievances.md). Counted from `created_at`, so a test moves that.
 */
function overdueAt(now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`((${complaints.state} = 'open' and ${ackDue} < ${at}) or (${complaints.state} <> 'closed' and ${resolveDue} < ${at}))`;
}

/** The user's row, locked: one user's complaints are raised one at a time, so the open limit holds. */
export async function lockUser(db: Executor, userId: number) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function countOpenOf(db: Executor, userId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(complaints)
    .where(and(eq(complaints.userId, userId), ne(complaints.state, 'closed')));
  return row?.n ?? 0;
}

/** Whether the withdrawal, wallet entry or payout account `id` is the user's own. */
export async function ownsSubject(db: Executor, userId: number, kind: ComplaintSubjectKind, id: number) {
  const rows =
    kind === 'withdrawal'
      ? await db
          .select({ id: withdrawals.id })
          .from(withdrawals)
          .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId)))
      : kind === 'payout_account'
        ? await db
            .select({ id: payoutAccounts.id })
            .from(payoutAccounts)
            .where(and(eq(payoutAccounts.id, id), eq(payoutAccounts.userId, userId)))
        : await db
            .select({ id: entries.id })
            .from(entries)
            .innerJoin(accounts, eq(accounts.id, entries.accountId))
            .where(and(eq(entries.id, id), eq(accounts.userId, userId)));
  return rows.length > 0;
}

export async function insertComplaint(db: Executor, values: typeof complaints.$inferInsert) {
  const [row] = await db.insert(complaints).values(values).returning();
  if (!row) throw new Error('insert complaints returned no row');
  return row;
}

/** The user's complaints, newest first; `beforeId` continues a page. */
export async function listOwn(db: Executor, userId: number, limit: number, beforeId?: number) {
  return db
    .select()
    .from(complaints)
    .where(and(eq(complaints.userId, userId), beforeId === undefined ? undefined : lt(complaints.id, beforeId)))
    .orderBy(desc(complaints.id))
    .limit(limit);
}

export async function getComplaint(db: Executor, id: number, options: { userId?: number; forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(complaints)
    .where(and(eq(complaints.id, id), options.userId === undefined ? undefined : eq(complaints.userId, options.userId)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function eventsOf(db: Executor, complaintIds: number[]) {
  if (complaintIds.length === 0) return [];
  return db
    .select()
    .from(complaintEvents)
    .where(inArray(complaintEvents.complaintId, complaintIds))
    .orderBy(asc(complaintEvents.id));
}

/** The newest event of a kind on a complaint (who acknowledged or closed it, and when). */
export async function lastEventOf(db: Executor, complaintId: number, kind: 'acknowledged' | 'closed') {
  const [row] = await db
    .select({ actorId: complaintEvents.actorId, createdAt: complaintEvents.createdAt })
    .from(complaintEvents)
    .where(and(eq(complaintEvents.complaintId, complaintId), eq(complaintEvents.kind, kind)))
    .orderBy(desc(complaintEvents.id))
    .limit(1);
  return row;
}

export async function insertEvent(db: Executor, values: typeof complaintEvents.$inferInsert) {
  const [row] = await db.insert(complaintEvents).values(values).returning();
  if (!row) throw new Error('insert complaint_events returned no row');
  return row;
}

export async function updateComplaint(
  db: Executor,
  id: number,
  set: Partial<Pick<ComplaintRow, 'state' | 'outcome' | 'acknowledgedAt' | 'closedAt'>> & { updatedAt: Date },
) {
  const [row] = await db.update(complaints).set(set).where(eq(complaints.id, id)).returning();
  if (!row) throw new Error(`update complaints ${id} returned no row`);
  return row;
}

/**
 * The operators' queue with each complaint's user: `open` and `overdue` (not closed) oldest first, the
 * deadline order; `closed` and `all` newest first. `afterId` continues a page in that order.
 */
export async function adminList(
  db: Executor,
  filter: AdminComplaintFilter,
  now: Date,
  limit: number,
  afterId?: number,
) {
  const oldestFirst = filter === 'open' || filter === 'overdue';
  const where = and(
    filter === 'open' ? ne(complaints.state, 'closed') : undefined,
    filter === 'overdue' ? overdueAt(now) : undefined,
    filter === 'closed' ? eq(complaints.state, 'closed') : undefined,
    afterId === undefined ? undefined : oldestFirst ? gt(complaints.id, afterId) : lt(complaints.id, afterId),
  );
  return db
    .select({ complaint: complaints, username: users.username })
    .from(complaints)
    .innerJoin(users, eq(users.id, complaints.userId))
    .where(where)
    .orderBy(oldestFirst ? asc(complaints.id) : desc(complaints.id))
    .limit(limit);
}

/** One complaint with its user's username. */
export async function adminOne(db: Executor, id: number) {
  return db
    .select({ complaint: complaints, username: users.username })
    .from(complaints)
    .innerJoin(users, eq(users.id, complaints.userId))
    .where(eq(complaints.id, id))
    .limit(1);
}

/** Open (not closed) complaints and, of them, those past a deadline at `now`: the dashboard's and /metrics' figures. */
export async function complaintFigures(db: Executor, now: Date) {
  const [row] = await db
    .select({
      open: sql<number>`count(*)::int`,
      overdue: sql<number>`(count(*) filter (where ${overdueAt(now)}))::int`,
    })
    .from(complaints)
    .where(or(eq(complaints.state, 'open'), eq(complaints.state, 'acknowledged')));
  return { open: row?.open ?? 0, overdue: row?.overdue ?? 0 };
}

/** The linked withdrawals, with the account they pay (masked by the caller). */
export async function withdrawalsByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: withdrawals.id,
      amount: withdrawals.amount,
      state: withdrawals.state,
      accountType: withdrawals.accountType,
      accountNo: withdrawals.accountNo,
      createdAt: withdrawals.createdAt,
    })
    .from(withdrawals)
    .where(inArray(withdrawals.id, ids));
}

/** The linked wallet entries with their posting's type. */
export async function entriesByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: entries.id, amount: entries.amount, type: postings.type, createdAt: entries.createdAt })
    .from(entries)
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(inArray(entries.id, ids));
}

export async function payoutAccountsByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: payoutAccounts.id,
      accountType: payoutAccounts.accountType,
      accountNo: payoutAccounts.accountNo,
      createdAt: payoutAccounts.createdAt,
    })
    .from(payoutAccounts)
    .where(inArray(payoutAccounts.id, ids));
}
