import type { PayoutGatewayName } from '@kamai/contract';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { jobs, payoutCallbacks, payoutMismatches, payoutWebhooksIgnored, users, withdrawals } from '../../db/schema';

/** Approved withdrawals with no unfinished dispatch job (`<prefix><id>`): their dispatch was lost. */
export async function approvedWithoutDispatch(db: Executor, dedupeKeyPrefix: string) {
  const rows = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'approved'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(jobs)
            .where(and(eq(jobs.dedupeKey, sql`${dedupeKeyPrefix} || ${withdrawals.id}::text`), isNull(jobs.doneAt))),
        ),
      ),
    )
    .orderBy(asc(withdrawals.id));
  return rows.map((r) => r.id);
}

/** Withdrawals still processing that were last handed to the gateway before `before`. */
export async function processingDispatchedBefore(db: Executor, before: Date) {
  const rows = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'processing'),
        sql`coalesce(${withdrawals.dispatchedAt}, ${withdrawals.updatedAt}) < ${before.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(withdrawals.id));
  return rows.map((r) => r.id);
}

/** Records that a processing withdrawal was handed to the gateway again. */
export async function markDispatched(db: Executor, id: number, at: Date) {
  await db.update(withdrawals).set({ dispatchedAt: at }).where(eq(withdrawals.id, id));
}

export async function setGatewayPayoutId(db: Executor, id: number, payoutId: string) {
  await db.update(withdrawals).set({ gatewayPayoutId: payoutId }).where(eq(withdrawals.id, id));
}

/** The withdrawal a gateway's payout id belongs to. */
export async function withdrawalIdByPayout(db: Executor, gateway: PayoutGatewayName, payoutId: string) {
  const [row] = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.gateway, gateway), eq(withdrawals.gatewayPayoutId, payoutId)));
  return row?.id;
}

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
  const states = await db
    .select({
      state: withdrawals.state,
      gateway: sql<string>`coalesce(${withdrawals.gateway}, 'none')`,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(withdrawals)
    .groupBy(withdrawals.state, withdrawals.gateway);
  return { mismatchesOpen: mismatches?.open ?? 0, mismatchesTotal: mismatches?.total ?? 0, states };
}

/** Stores the bank reference (UTR) of a paid withdrawal that was paid before the gateway knew it. */
export async function setReference(db: Executor, id: number, reference: string) {
  await db
    .update(withdrawals)
    .set({ reference })
    .where(and(eq(withdrawals.id, id), eq(withdrawals.state, 'paid'), isNull(withdrawals.reference)));
}

/** Approved withdrawals paying this number (their dispatch waited for its check). */
export async function approvedTo(db: Executor, account: { accountType: string; accountNo: string; ifsc: string }) {
  const rows = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'approved'),
        sql`${withdrawals.accountType} = ${account.accountType}`,
        eq(withdrawals.accountNo, account.accountNo),
        eq(withdrawals.ifsc, account.ifsc),
      ),
    )
    .orderBy(asc(withdrawals.id));
  return rows.map((r) => r.id);
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

/** Keeps the payout's furthest status in the gateway's life cycle. */
export async function setGatewayStatus(db: Executor, id: number, status: string) {
  await db.update(withdrawals).set({ gatewayStatus: status }).where(eq(withdrawals.id, id));
}

/**
 * Fixes a withdrawal's payout reference and idempotency key at its first dispatch (both `reference`);
 * one fixed already (a racing dispatch) is kept and answered.
 */
export async function fixPayoutReference(db: Executor, id: number, reference: string, at: Date) {
  await db
    .update(withdrawals)
    .set({ payoutReference: reference, payoutIdempotencyKey: reference, payoutReferencedAt: at })
    .where(and(eq(withdrawals.id, id), isNull(withdrawals.payoutReference)));
  const [row] = await db
    .select({ reference: withdrawals.payoutReference, idempotencyKey: withdrawals.payoutIdempotencyKey })
    .from(withdrawals)
    .where(eq(withdrawals.id, id));
  if (!row?.reference || !row.idempotencyKey) throw new Error(`withdrawal ${id} has no payout reference`);
  return { reference: row.reference, idempotencyKey: row.idempotencyKey };
}

/** The withdrawal a payout reference was sent for. */
export async function withdrawalIdByReference(db: Executor, reference: string) {
  const [row] = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(eq(withdrawals.payoutReference, reference));
  return row?.id;
}

/** Keeps RazorpayX's fees and tax on a withdrawal's payout, as its record first showed them. */
export async function setGatewayFees(db: Executor, id: number, fees: bigint, tax: bigint) {
  await db.update(withdrawals).set({ gatewayFees: fees, gatewayTax: tax }).where(eq(withdrawals.id, id));
}

/** Withdrawal ids by the payout references and RazorpayX payout ids of one page of its record. */
export async function withdrawalsByReferenceOrPayout(db: Executor, references: string[], payoutIds: string[]) {
  const byReference = new Map<string, number>();
  const byPayout = new Map<string, number>();
  if (references.length + payoutIds.length === 0) return { byReference, byPayout };
  const rows = await db
    .select({ id: withdrawals.id, reference: withdrawals.payoutReference, payoutId: withdrawals.gatewayPayoutId })
    .from(withdrawals)
    .where(
      or(
        references.length > 0 ? inArray(withdrawals.payoutReference, references) : undefined,
        payoutIds.length > 0
          ? and(eq(withdrawals.gateway, 'razorpayx'), inArray(withdrawals.gatewayPayoutId, payoutIds))
          : undefined,
      ),
    );
  for (const row of rows) {
    if (row.reference) byReference.set(row.reference, row.id);
    if (row.payoutId) byPayout.set(row.payoutId, row.id);
  }
  return { byReference, byPayout };
}

/** RazorpayX withdrawals whose payout reference was fixed (first sent) in [from, to). */
export async function sentBetween(db: Executor, from: Date, to: Date) {
  return db
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.gateway, 'razorpayx'),
        gte(withdrawals.payoutReferencedAt, from),
        lt(withdrawals.payoutReferencedAt, to),
      ),
    )
    .orderBy(asc(withdrawals.id));
}
