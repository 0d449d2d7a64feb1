import { RISK_DEFAULTS, SYSTEM_TASK_IDS } from '@kamai/contract';
import { type AnyColumn, and, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, users } from '../../db/schema';
import { settingOver } from '../../platform/settings.queries';

/** Whom a user's income pays rebates to, at which rates (basis points). */
export interface RebatePlan {
  /** The user's inviter and the inviter's inviter, if any and not deleted. */
  level1: number | null;
  level2: number | null;
  level1Bps: number;
  level2Bps: number;
}

/**
 * The rebate plan of the user `userId` names, as one SQL expression (JSON text, `toRebatePlan` reads
 * it): the uplines, and the stored `rebate` setting. A deleted account earns nothing more: its wallet
 * is only the ledger's record.
 */
export function rebatePlanOf(userId: SQL | number): SQL<string | null> {
  return sql<string | null>`(select json_build_object(
      'level1', case when up1.deleted_at is null then up1.id end,
      'level2', case when up2.deleted_at is null then up2.id end,
      'rates', (select rs.value from settings rs where rs.key = 'rebate'))::text
    from users me
    left join users up1 on up1.id = me.inviter_id
    left join users up2 on up2.id = up1.inviter_id
    where me.id = ${userId})`;
}

export function toRebatePlan(text: string | null | undefined): RebatePlan {
  const plan = (text ? JSON.parse(text) : {}) as { level1?: number | null; level2?: number | null; rates?: unknown };
  const rates = settingOver('rebate', plan.rates);
  return {
    level1: plan.level1 ?? null,
    level2: plan.level2 ?? null,
    level1Bps: rates.level1Bps,
    level2Bps: rates.level2Bps,
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
 * registering. A returning identity (a phone or e-mail registered before, issue 22) never counts: one
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

const inviteeOf = sql<number>`(${postings.ref}->>'inviteeId')::bigint`;

function rebatesOf(userId: number) {
  return and(eq(accounts.userId, userId), eq(accounts.kind, 'wallet'), eq(postings.type, 'rebate'));
}

/** Level-1 rebates the user earned from each of the given invitees, in paise. */
export async function rebatesByInvitee(db: Executor, userId: number, inviteeIds: number[]) {
  if (inviteeIds.length === 0) return new Map<number, bigint>();
  const rows = await db
    .select({ inviteeId: inviteeOf, total: sql<string>`sum(${entries.amount})::text` })
    .from(entries)
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(and(rebatesOf(userId), sql`${postings.ref}->>'level' = '1'`, inArray(inviteeOf, inviteeIds)))
    .groupBy(inviteeOf);
  return new Map(rows.map((r) => [Number(r.inviteeId), BigInt(r.total)]));
}

/** Every rebate (both levels) the user has earned, in paise. */
export async function rebateTotal(db: Executor, userId: number): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${entries.amount}), 0)::text` })
    .from(entries)
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(rebatesOf(userId));
  return BigInt(row?.total ?? '0');
}
