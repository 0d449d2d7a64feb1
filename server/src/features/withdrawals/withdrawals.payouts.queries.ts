import type { PayoutGatewayName } from '@kamai/contract';
import { and, asc, eq, gte, inArray, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { withdrawals } from '../../db/schema';
import { unfinishedJobs } from '../../platform/jobs.queries';

// What the payouts feature reads and writes of a withdrawal (its dispatch, gateway ids, payout
// reference, fees), here with the table's owner (docs/decisions/table-owners.md).

/** For /metrics: withdrawals per state and gateway. */
export async function withdrawalStateCounts(db: Executor) {
  return db
    .select({
      state: withdrawals.state,
      gateway: sql<string>`coalesce(${withdrawals.gateway}, 'none')`,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(withdrawals)
    .groupBy(withdrawals.state, withdrawals.gateway);
}

/** Approved withdrawals with no unfinished dispatch job (`<prefix><id>`): their dispatch was lost. */
export async function approvedWithoutDispatch(db: Executor, dedupeKeyPrefix: string) {
  const rows = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.state, 'approved'),
        notExists(unfinishedJobs(db, sql`${dedupeKeyPrefix} || ${withdrawals.id}::text`)),
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
