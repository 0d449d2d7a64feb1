import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import {
  payoutCallbacks,
  payoutMismatches,
  payoutReconciliations,
  payoutWebhooksIgnored,
  users,
  withdrawals,
} from '../../db/schema';
import { withdrawalStateCounts } from '../withdrawals';

export type NewCallback = Omit<typeof payoutCallbacks.$inferInsert, 'id' | 'createdAt' | 'applied'>;

/** Records a callback once per event key: `{id, created}`; `created` false for a repeated delivery. */
export async function recordCallback(db: Executor, values: NewCallback & { createdAt: Date }) {
  const [row] = await db
    .insert(payoutCallbacks)
    .values(values)
    .onConflictDoNothing({ target: payoutCallbacks.eventKey })
    .returning({ id: payoutCallbacks.id });
  if (row) return { id: row.id, created: true };
  const [existing] = await db
    .select({ id: payoutCallbacks.id })
    .from(payoutCallbacks)
    .where(eq(payoutCallbacks.eventKey, values.eventKey));
  if (!existing) throw new Error(`payout callback ${values.eventKey} conflicted but is not visible`);
  return { id: existing.id, created: false };
}

/** A signed webhook Kamai did not act on, with the reason (answered 2xx all the same). */
export async function recordIgnoredWebhook(db: Executor, values: typeof payoutWebhooksIgnored.$inferInsert) {
  await db.insert(payoutWebhooksIgnored).values(values);
}

export async function markCallbackApplied(db: Executor, id: number) {
  await db.update(payoutCallbacks).set({ applied: true }).where(eq(payoutCallbacks.id, id));
}

/** The newest callback that changed the withdrawal's state before callback `beforeId`. */
export async function lastAppliedCallback(db: Executor, withdrawalId: number, beforeId: number) {
  const [row] = await db
    .select({ id: payoutCallbacks.id })
    .from(payoutCallbacks)
    .where(
      and(
        eq(payoutCallbacks.withdrawalId, withdrawalId),
        eq(payoutCallbacks.applied, true),
        lt(payoutCallbacks.id, beforeId),
      ),
    )
    .orderBy(desc(payoutCallbacks.id))
    .limit(1);
  return row?.id;
}

export type NewMismatch = Omit<typeof payoutMismatches.$inferInsert, 'id'>;

/** Opens a mismatch once per dedupe key; answers its id when it is new. */
export async function insertMismatch(db: Executor, values: NewMismatch) {
  const [row] = await db
    .insert(payoutMismatches)
    .values(values)
    .onConflictDoNothing({ target: payoutMismatches.dedupeKey })
    .returning({ id: payoutMismatches.id });
  return row?.id;
}

export type MismatchRow = typeof payoutMismatches.$inferSelect;

export async function lockMismatch(db: Executor, id: number) {
  const [row] = await db.select().from(payoutMismatches).where(eq(payoutMismatches.id, id)).for('update');
  return row;
}

export async function resolveMismatch(
  db: Executor,
  id: number,
  values: Pick<MismatchRow, 'resolution' | 'resolutionReason' | 'resolvedBy' | 'resolvedAt'>,
) {
  await db.update(payoutMismatches).set(values).where(eq(payoutMismatches.id, id));
}

/** Mismatches newest first, with their withdrawal, its owner's name and both callbacks. */
export async function listMismatches(
  db: Executor,
  filter: { resolved?: boolean; ids?: number[] },
  limit: number,
  beforeId?: number,
) {
  const settled = alias(payoutCallbacks, 'settled_callback');
  const rows = await db
    .select({
      mismatch: payoutMismatches,
      withdrawal: {
        userId: withdrawals.userId,
        amount: withdrawals.amount,
        fee: withdrawals.fee,
        state: withdrawals.state,
        reference: withdrawals.reference,
        gatewayStatus: withdrawals.gatewayStatus,
      },
      username: users.username,
      callback: { status: payoutCallbacks.status, payload: payoutCallbacks.payload, at: payoutCallbacks.createdAt },
      settled: { status: settled.status, payload: settled.payload, at: settled.createdAt },
    })
    .from(payoutMismatches)
    .leftJoin(withdrawals, eq(withdrawals.id, payoutMismatches.withdrawalId))
    .leftJoin(users, eq(users.id, withdrawals.userId))
    .leftJoin(payoutCallbacks, eq(payoutCallbacks.id, payoutMismatches.callbackId))
    .leftJoin(settled, eq(settled.id, payoutMismatches.settledCallbackId))
    .where(
      and(
        filter.resolved === undefined
          ? undefined
          : filter.resolved
            ? isNotNull(payoutMismatches.resolvedAt)
            : isNull(payoutMismatches.resolvedAt),
        filter.ids ? inArray(payoutMismatches.id, filter.ids) : undefined,
        beforeId === undefined ? undefined : lt(payoutMismatches.id, beforeId),
      ),
    )
    .orderBy(desc(payoutMismatches.id))
    .limit(limit);
  return rows;
}

/** For /metrics: open and all mismatches, and withdrawals per state. */
export async function payoutFigures(db: Executor) {
  const [mismatches] = await db
    .select({
      open: sql<number>`count(*) filter (where ${payoutMismatches.resolvedAt} is null)`.mapWith(Number),
      total: sql<number>`count(*)`.mapWith(Number),
    })
    .from(payoutMismatches);
  const states = await withdrawalStateCounts(db);
  return { mismatchesOpen: mismatches?.open ?? 0, mismatchesTotal: mismatches?.total ?? 0, states };
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Every `payout_recovery` posting with what the rule `recovery_without_paid_and_returned` weighs: its
 * withdrawal (by `ref.withdrawalId`; null when it names none), the entries summed per account role, and
 * whether the stored evidence allows it: a mismatch resolved "recover" whose signed report claims the
 * payout paid (`paidStatuses`, of the withdrawal's payout amount) with no report that the bank returned it
 * (`returnedStatuses`) received after that claim.
 */
export async function recoveryPostings(
  db: Executor,
  paidStatuses: readonly string[],
  returnedStatuses: readonly string[],
) {
  const result = await db.execute(sql`
    select p.id as posting_id, p.ref->>'withdrawalId' as ref_id, w.id as withdrawal_id, w.state, w.user_id,
      w.amount::text as amount, w.fee::text as fee,
      coalesce(sum(e.amount) filter (where a.user_id = w.user_id and a.kind = 'wallet'), 0)::text as wallet,
      coalesce(sum(e.amount) filter (where a.user_id is null and a.kind = 'platform_payouts'), 0)::text as payouts,
      coalesce(sum(e.amount) filter (where a.user_id is null and a.kind = 'platform_revenue'), 0)::text as revenue,
      coalesce(sum(abs(e.amount)) filter (where not (
        (a.user_id = w.user_id and a.kind = 'wallet')
        or (a.user_id is null and a.kind in ('platform_payouts', 'platform_revenue'))
      ) or w.id is null), 0)::text as other,
      exists (
        select 1 from ${payoutMismatches} m join ${payoutCallbacks} c on c.id = m.callback_id
        where m.withdrawal_id = w.id and m.resolution = 'recover' and c.status in (${list(paidStatuses)})
          and (m.callback_amount is null or m.callback_amount = w.amount - w.fee)
          and not exists (
            select 1 from ${payoutCallbacks} r
            where r.withdrawal_id = w.id and r.status in (${list(returnedStatuses)}) and r.id > c.id
          )
      ) as confirmed
    from postings p
    left join ${withdrawals} w on w.id::text = p.ref->>'withdrawalId'
    join entries e on e.posting_id = p.id
    join accounts a on a.id = e.account_id
    where p.type = 'payout_recovery'
    group by p.id, w.id
    order by p.id`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    postingId: String(r.posting_id),
    refId: r.ref_id === null ? null : String(r.ref_id),
    withdrawal:
      r.withdrawal_id === null
        ? null
        : {
            id: Number(r.withdrawal_id),
            state: String(r.state),
            userId: Number(r.user_id),
            amount: BigInt(r.amount as string),
            fee: BigInt(r.fee as string),
          },
    wallet: BigInt(r.wallet as string),
    payouts: BigInt(r.payouts as string),
    revenue: BigInt(r.revenue as string),
    other: BigInt(r.other as string),
    confirmed: r.confirmed === true || r.confirmed === 't',
  }));
}

export type NewReconciliation = Pick<
  typeof payoutReconciliations.$inferInsert,
  'gateway' | 'day' | 'startedBy' | 'startedAt'
>;

/** Starts a run of the payout reconciliation; answers its id. */
export async function startReconciliation(db: Executor, values: NewReconciliation): Promise<number> {
  const [started] = await db.insert(payoutReconciliations).values(values).returning({ id: payoutReconciliations.id });
  if (!started) throw new Error('payout_reconciliations insert returned no row');
  return started.id;
}

/** Ends a run, done or failed, with its counts. */
export async function finishReconciliation(
  db: Executor,
  id: number,
  values: Pick<typeof payoutReconciliations.$inferInsert, 'status' | 'finishedAt' | 'counts' | 'error'>,
) {
  await db.update(payoutReconciliations).set(values).where(eq(payoutReconciliations.id, id));
}

/** The latest run, if any. */
export async function lastReconciliation(db: Executor) {
  const [row] = await db.select().from(payoutReconciliations).orderBy(desc(payoutReconciliations.id)).limit(1);
  return row;
}

/** Whether a run of this India day finished. */
export async function reconciledDay(db: Executor, day: string): Promise<boolean> {
  const [done] = await db
    .select({ id: payoutReconciliations.id })
    .from(payoutReconciliations)
    .where(and(eq(payoutReconciliations.day, day), eq(payoutReconciliations.status, 'done')))
    .limit(1);
  return done !== undefined;
}
