import { RISK_DEFAULTS, SYSTEM_TASK_IDS } from '@kamai/contract';
import { type AnyColumn, and, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, users } from '../../db/schema';

/** The user's inviter (level 1) and the inviter's inviter (level 2), if any and not deleted. */
export async function findUplines(db: Executor, userId: number) {
  const inviter = alias(users, 'inviter');
  const inviter2 = alias(users, 'inviter2');
  const [row] = await db
    .select({
      level1: inviter.id,
      level1Deleted: inviter.deletedAt,
      level2: inviter2.id,
      level2Deleted: inviter2.deletedAt,
    })
    .from(users)
    .leftJoin(inviter, eq(inviter.id, users.inviterId))
    .leftJoin(inviter2, eq(inviter2.id, inviter.inviterId))
    .where(eq(users.id, userId))
    .limit(1);
  // A deleted account earns nothing more: its wallet is only the ledger's record.
  return {
    level1: row?.level1 && !row.level1Deleted ? row.level1 : null,
    level2: row?.level2 && !row.level2Deleted ? row.level2 : null,
  };
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
 * `qualifiedInvite` rule read in the same statement (docs/decisions.md, "fraud"): `registration`
 * every invitee; `verified_phone` those who registered with a mobile number (verified by its
 * one-time code) or linked a messaging number; `first_task` those who completed a task other than
 * registering.
 */
export function qualifiedInviteesOf(inviterId: AnyColumn | SQL | number): SQL<number> {
  const rule = sql`coalesce((select st.value->>'qualifiedInvite' from settings st where st.key = 'risk'), ${RISK_DEFAULTS.qualifiedInvite}::text)`;
  return sql<number>`(select count(*)::int from users qi where qi.inviter_id = ${inviterId} and case ${rule}
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
