import { and, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { unclaimedMoney, users, withdrawals } from '../../db/schema';

export type NewUnclaimed = typeof unclaimedMoney.$inferInsert;

/** The operators' task for money that came back for a deleted account; once per posting. */
export async function insertUnclaimed(db: Executor, values: NewUnclaimed) {
  await db.insert(unclaimedMoney).values(values).onConflictDoNothing({ target: unclaimedMoney.postingId });
}

export async function listUnclaimed(
  db: Executor,
  filter: { handled?: boolean; ids?: number[] },
  limit: number,
  beforeId?: number,
) {
  return db
    .select({
      item: unclaimedMoney,
      username: users.username,
      withdrawal: {
        accountNo: withdrawals.accountNo,
        gateway: withdrawals.gateway,
        payoutId: withdrawals.gatewayPayoutId,
        reference: withdrawals.reference,
      },
    })
    .from(unclaimedMoney)
    .innerJoin(users, eq(users.id, unclaimedMoney.userId))
    .innerJoin(withdrawals, eq(withdrawals.id, unclaimedMoney.withdrawalId))
    .where(
      and(
        filter.handled === undefined
          ? undefined
          : filter.handled
            ? isNotNull(unclaimedMoney.handledAt)
            : isNull(unclaimedMoney.handledAt),
        filter.ids ? inArray(unclaimedMoney.id, filter.ids) : undefined,
        beforeId === undefined ? undefined : lt(unclaimedMoney.id, beforeId),
      ),
    )
    .orderBy(desc(unclaimedMoney.id))
    .limit(limit);
}

export async function countOpenUnclaimed(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(unclaimedMoney).where(isNull(unclaimedMoney.handledAt));
  return row?.n ?? 0;
}

export async function lockUnclaimed(db: Executor, id: number) {
  const [row] = await db.select().from(unclaimedMoney).where(eq(unclaimedMoney.id, id)).limit(1).for('update');
  return row;
}

export async function markHandled(
  db: Executor,
  id: number,
  values: { handledBy: number; handledAt: Date; note: string },
) {
  await db.update(unclaimedMoney).set(values).where(eq(unclaimedMoney.id, id));
}

/**
 * The `unclaimed_for_deleted_account` rule's evidence: every entry on `platform_unclaimed` that is not
 * a withdrawal's refund or reversal of a deleted account with its operator task of the same amount, and
 * every task whose posting put nothing there.
 */
export async function unclaimedOffRule(db: Executor) {
  const result = await db.execute(sql`
    with moved as (
      select p.id as posting_id, p.type, p.ref->>'withdrawalId' as wid, sum(e.amount) as amount
      from entries e
      join accounts a on a.id = e.account_id and a.user_id is null and a.kind = 'platform_unclaimed'
      join postings p on p.id = e.posting_id
      group by p.id
    )
    select m.posting_id, m.type, m.wid, m.amount::text as amount, u.id as user_id, u.deleted_at,
      um.id as task_id, um.amount::text as task_amount
    from moved m
    left join ${withdrawals} w on w.id::text = m.wid
    left join ${users} u on u.id = w.user_id
    left join ${unclaimedMoney} um on um.posting_id = m.posting_id
    where m.type not in ('withdrawal_refund', 'withdrawal_reversal') or w.id is null or u.deleted_at is null
      or um.id is null or um.amount <> m.amount or um.withdrawal_id <> w.id
    union all
    select um.posting_id, p.type, um.withdrawal_id::text, '0', um.user_id, null, um.id, um.amount::text
    from ${unclaimedMoney} um join postings p on p.id = um.posting_id
    where not exists (select 1 from moved m where m.posting_id = um.posting_id)
    order by 1`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    postingId: String(r.posting_id),
    type: String(r.type),
    withdrawalId: r.wid === null ? null : String(r.wid),
    amount: String(r.amount),
    userId: r.user_id === null ? null : Number(r.user_id),
    deleted: r.deleted_at !== null,
    taskId: r.task_id === null ? null : Number(r.task_id),
    taskAmount: r.task_amount === null ? null : String(r.task_amount),
  }));
}
