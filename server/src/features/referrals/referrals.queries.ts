import { type PostingRef, REBATE_HOLD_DAYS_DEFAULT, RISK_DEFAULTS, SYSTEM_TASK_IDS } from '@kamai/contract';
import { type AnyColumn, and, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { StatementPart } from '../../db/prepared';
import { accounts, entries, postings, rebates, users } from '../../db/schema';
import { settingOver } from '../../platform/settings.queries';

/** Whom a user's task rewards owe rebates to, at which rates (basis points), after which hold. */
export interface RebatePlan {
  /** The user's inviter and the inviter's inviter, if any, not deleted and not staff. */
  level1: number | null;
  level2: number | null;
  level1Bps: number;
  level2Bps: number;
  holdDays: number;
  /** The user is staff (reviewer or admin): staff earn nothing, no task reward either. */
  staff: boolean;
  /** Whether the user's rewards owe rebates at all: not a duplicate (returning) identity, not staff, not deleted. */
  eligible: boolean;
  /** The user deleted the account: nothing may be credited to it (`account_deleted_final`). */
  deleted: boolean;
}

/**
 * The rebate plan of the user `userId` names, as one SQL expression (JSON text, `toRebatePlan` reads
 * it): the uplines, and the stored `rebate` setting. A deleted account earns nothing more (its wallet
 * is only the ledger's record) and neither does a staff account (docs/decisions/rebate-hold.md).
 */
export function rebatePlanOf(userId: SQL | number): SQL<string | null> {
  return sql<string | null>`(select json_build_object(
      'level1', case when up1.deleted_at is null and up1.role = 'user' then up1.id end,
      'level2', case when up2.deleted_at is null and up2.role = 'user' then up2.id end,
      'staff', me.role <> 'user',
      'eligible', me.role = 'user' and not me.returning_identity and me.deleted_at is null,
      'deleted', me.deleted_at is not null,
      'rates', (select rs.value from settings rs where rs.key = 'rebate'))::text
    from users me
    left join users up1 on up1.id = me.inviter_id
    left join users up2 on up2.id = up1.inviter_id
    where me.id = ${userId})`;
}

export function toRebatePlan(text: string | null | undefined): RebatePlan {
  const plan = (text ? JSON.parse(text) : {}) as {
    level1?: number | null;
    level2?: number | null;
    staff?: boolean;
    eligible?: boolean;
    deleted?: boolean;
    rates?: unknown;
  };
  const rates = settingOver('rebate', plan.rates);
  return {
    level1: plan.level1 ?? null,
    level2: plan.level2 ?? null,
    level1Bps: rates.level1Bps,
    level2Bps: rates.level2Bps,
    holdDays: rates.holdDays ?? REBATE_HOLD_DAYS_DEFAULT,
    staff: plan.staff ?? false,
    eligible: plan.eligible ?? false,
    deleted: plan.deleted ?? false,
  };
}

/** The user's rebate plan, in one statement. */
export async function findRebatePlan(db: Executor, userId: number): Promise<RebatePlan> {
  const [row] = await db.select({ plan: rebatePlanOf(userId) }).from(sql`(select 1) as one`);
  return toRebatePlan(row?.plan);
}

/** The inviter's invitees, newest first; `beforeId` continues a page. */
export async function listInvitees(db: Executor, inviterId: number, limit: number, beforeId?: number) {
  return db
    .select({ id: users.id, username: users.username, createdAt: users.createdAt })
    .from(users)
    .where(and(eq(users.inviterId, inviterId), beforeId === undefined ? undefined : lt(users.id, beforeId)))
    .orderBy(desc(users.id))
    .limit(limit);
}

/**
 * How many invitees of the user `inviterId` names count as friends, under the `risk` settings'
 * `qualifiedInvite` rule read in the same statement (docs/decisions/fraud-signals.md): `registration`
 * every invitee; `verified_phone` those who registered with a mobile number (verified by its
 * one-time code) or linked a messaging number; `first_task` those who completed a task other than
 * registering. A returning identity (a phone or e-mail registered before: docs/decisions/canonical-identity.md) never
 * counts: one
 * phone is one friend, ever.
 */
export function qualifiedInviteesOf(inviterId: AnyColumn | SQL | number): SQL<number> {
  const rule = sql`coalesce((select st.value->>'qualifiedInvite' from settings st where st.key = 'risk'), ${RISK_DEFAULTS.qualifiedInvite}::text)`;
  return sql<number>`(select count(*)::int from users qi where qi.inviter_id = ${inviterId} and not qi.returning_identity and case ${rule}
    when 'registration' then true
    when 'verified_phone' then qi.username ~ '^91[0-9]{10}$'
      or exists (select 1 from linked_accounts qla where qla.user_id = qi.id)
    else exists (select 1 from task_completions qtc where qtc.user_id = qi.id and qtc.task_id <> ${SYSTEM_TASK_IDS.register}::bigint)
  end)`;
}

export async function countQualifiedInvitees(db: Executor, inviterId: number) {
  const [row] = await db.select({ n: qualifiedInviteesOf(inviterId) }).from(sql`(select 1) as one`);
  return Number(row?.n ?? 0);
}

/** Every invitee, qualified or not (the console's invite tree). */
export async function countInvitees(db: Executor, inviterId: number) {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.inviterId, inviterId));
  return row?.n ?? 0;
}

/**
 * A task reward and the rebates it owes, through the database's `credit_with_rebates`
 * (db/functions/30_credit_with_rebates.sql: every posting by `ledger_post`, each rebate with its
 * `rebates` row), as the CTE `name` of the caller's statement built once (`builtPerShape`), every value
 * a placeholder. Its one row: `posting`, `created` (false: the key was posted before, nothing was
 * written) and `balance`, the user's wallet after. The function runs once, when the statement reads the
 * CTE; a data-modifying CTE that reads it makes sure it runs.
 */
export function rewardCreditPart(
  name: string,
  input: {
    userId: number;
    amount: bigint;
    idempotencyKey: string;
    ref: PostingRef;
    level1: number | null;
    level1Bps: number;
    level2: number | null;
    level2Bps: number;
    availableAt: Date;
  },
): StatementPart {
  const values: Record<string, unknown> = {
    userId: input.userId,
    amount: input.amount.toString(),
    key: input.idempotencyKey,
    ref: JSON.stringify(input.ref),
    level1: input.level1,
    level1Bps: input.level1Bps,
    level2: input.level2,
    level2Bps: input.level2Bps,
    availableAt: input.availableAt.toISOString(),
  };
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) params[`${name}_${key}`] = value;
  const p = (key: string) => sql.placeholder(`${name}_${key}`);
  return {
    shape: name,
    params,
    ctes: (db) => [
      db.$with(name, {}).as(
        sql`select o_posting as posting, o_created as created, o_balance as balance
          from credit_with_rebates(${p('userId')}::bigint, ${p('amount')}::bigint, ${p('key')}::text, ${p('ref')}::jsonb,
            ${p('level1')}::bigint, ${p('level1Bps')}::int, ${p('level2')}::bigint, ${p('level2Bps')}::int,
            ${p('availableAt')}::timestamptz)`,
      ),
    ],
  };
}

/** Level-1 rebates the user is owed on each of the given invitees' rewards, pending and available, in paise. */
export async function rebatesByInvitee(db: Executor, userId: number, inviteeIds: number[]) {
  if (inviteeIds.length === 0) return new Map<number, { pending: bigint; available: bigint }>();
  const rows = await db
    .select({
      inviteeId: rebates.inviteeId,
      pending: sql<string>`coalesce(sum(${rebates.amount}) filter (where ${rebates.state} = 'pending'), 0)::text`,
      available: sql<string>`coalesce(sum(${rebates.amount}) filter (where ${rebates.state} = 'available'), 0)::text`,
    })
    .from(rebates)
    .where(and(eq(rebates.earnerId, userId), eq(rebates.level, 1), inArray(rebates.inviteeId, inviteeIds)))
    .groupBy(rebates.inviteeId);
  return new Map(
    rows.map((r) => [Number(r.inviteeId), { pending: BigInt(r.pending), available: BigInt(r.available) }]),
  );
}

/** Every rebate (both levels) the user is owed: still pending, and available (in the wallet), in paise. */
export async function rebateTotals(db: Executor, userId: number): Promise<{ pending: bigint; available: bigint }> {
  const [row] = await db
    .select({
      pending: sql<string>`coalesce(sum(${rebates.amount}) filter (where ${rebates.state} = 'pending'), 0)::text`,
      available: sql<string>`coalesce(sum(${rebates.amount}) filter (where ${rebates.state} = 'available'), 0)::text`,
    })
    .from(rebates)
    .where(eq(rebates.earnerId, userId));
  return { pending: BigInt(row?.pending ?? '0'), available: BigInt(row?.available ?? '0') };
}

export interface DueRebate {
  id: number;
  sourcePostingId: number;
  inviteeId: number;
  earnerId: number;
  level: number;
  amount: bigint;
  /** Why it must be reversed instead of released, if it must. */
  reverse: 'earner_staff' | 'earner_deleted' | 'duplicate_identity' | null;
}

const dueColumns = {
  id: rebates.id,
  sourcePostingId: rebates.sourcePostingId,
  inviteeId: rebates.inviteeId,
  earnerId: rebates.earnerId,
  level: rebates.level,
  amount: rebates.amount,
  reverse: sql<DueRebate['reverse']>`(select case
      when er.role <> 'user' then 'earner_staff'
      when er.deleted_at is not null then 'earner_deleted'
      when iv.returning_identity then 'duplicate_identity'
    end from users er, users iv where er.id = ${rebates.earnerId} and iv.id = ${rebates.inviteeId})`,
};

/** Pending rebates whose hold has ended by `now`, oldest first, locked (others skip them). */
export async function lockDueRebates(db: Executor, now: Date, limit: number): Promise<DueRebate[]> {
  return db
    .select(dueColumns)
    .from(rebates)
    .where(and(eq(rebates.state, 'pending'), sql`${rebates.availableAt} <= ${now.toISOString()}::timestamptz`))
    .orderBy(rebates.availableAt, rebates.id)
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The pending rebates owed on one reward, or on every reward of one invitee, locked. */
export async function lockPendingRebates(
  db: Executor,
  of: { sourcePostingId: number } | { inviteeId: number },
): Promise<DueRebate[]> {
  const which =
    'sourcePostingId' in of ? eq(rebates.sourcePostingId, of.sourcePostingId) : eq(rebates.inviteeId, of.inviteeId);
  return db
    .select(dueColumns)
    .from(rebates)
    .where(and(eq(rebates.state, 'pending'), which))
    .orderBy(rebates.id)
    .for('update');
}

export async function settleRebate(
  db: Executor,
  id: number,
  values: { state: 'available' | 'reversed'; settlePostingId: number; reason: string | null; settledAt: Date },
) {
  await db
    .update(rebates)
    .set(values)
    .where(and(eq(rebates.id, id), eq(rebates.state, 'pending')));
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;

/**
 * Rebate postings paid into the account of a user who was staff at the time (`staff_since`, kept by
 * a trigger): each posting with the user it paid.
 */
export async function rebatesToStaff(db: Executor) {
  const result = await db.execute(sql`
    select p.id, a.user_id, u.role, e.amount::text as amount
    from ${postings} p
    join ${entries} e on e.posting_id = p.id
    join ${accounts} a on a.id = e.account_id
    join ${users} u on u.id = a.user_id
    where p.type = 'rebate' and e.amount > 0 and u.staff_since is not null and p.created_at >= u.staff_since
    order by p.id`);
  return rowsOf(result).map((r) => ({
    postingId: Number(r.id),
    userId: Number(r.user_id),
    role: String(r.role),
    amount: BigInt(String(r.amount)),
  }));
}

/**
 * Rebate postings that do not trace to what they must (docs/decisions/rebate-hold.md): an accrual (into
 * `rebate_pending`) to its `rebates` row, the row to a task reward paid to the invitee, its earner to
 * the invitee's upline of its level, its amount to floor(reward × bps / 10000); a release (into the
 * wallet) to an `available` row of the same earner and amount. Each with what is wrong.
 */
export async function rebatesWithoutSource(db: Executor) {
  const result = await db.execute(sql`
    with paid as (
      select p.id as posting_id, e.amount, a.user_id, a.kind
      from ${postings} p
      join ${entries} e on e.posting_id = p.id
      join ${accounts} a on a.id = e.account_id
      where p.type = 'rebate' and e.amount > 0
    ), traced as (
      select paid.*, r.id as rebate_id, r.earner_id, r.invitee_id, r.level, r.bps, r.amount as owed,
        s.type as source_type, src.user_id as source_user, src.amount as source_amount,
        case r.level when 1 then iv.inviter_id else up1.inviter_id end as upline
      from paid
      left join ${rebates} r on (paid.kind = 'rebate_pending' and r.accrual_posting_id = paid.posting_id)
        or (paid.kind = 'wallet' and r.settle_posting_id = paid.posting_id and r.state = 'available')
      left join ${postings} s on s.id = r.source_posting_id
      left join lateral (
        select sa.user_id, se.amount from ${entries} se join ${accounts} sa on sa.id = se.account_id
        where se.posting_id = s.id and sa.kind = 'wallet' and se.amount > 0 limit 1
      ) src on true
      left join ${users} iv on iv.id = r.invitee_id
      left join ${users} up1 on up1.id = iv.inviter_id
    )
    select posting_id, case
        when user_id is null or kind not in ('wallet', 'rebate_pending') then 'pays an account that is no user''s wallet or pending rebates'
        when rebate_id is null then 'no rebate record owes it (' || kind || ' of user ' || user_id || ')'
        when earner_id <> user_id then 'pays user ' || user_id || '; the rebate is owed to user ' || earner_id
        when owed <> amount then 'pays ' || amount || ' paise; the rebate owes ' || owed || ' paise'
        when source_type is distinct from 'task_reward' then 'its source posting is ' || coalesce(source_type, 'missing') || ', not a task reward'
        when source_user is distinct from invitee_id then 'its source reward paid user ' || coalesce(source_user::text, 'nobody') || ', not invitee ' || invitee_id
        when owed <> (source_amount * bps) / 10000 then 'owes ' || owed || ' paise on a reward of ' || source_amount || ' paise at ' || bps || ' bps'
        when upline is distinct from earner_id then 'user ' || earner_id || ' is not the level-' || level || ' upline of invitee ' || invitee_id
      end as problem
    from traced
    order by posting_id`);
  return rowsOf(result)
    .filter((r) => r.problem !== null)
    .map((r) => ({ postingId: Number(r.posting_id), problem: String(r.problem) }));
}
