import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { surveyResponses } from '../../db/schema';
import { introHasVideo } from '../../platform/settings.queries';
import { watchedIntroOf } from '../intro';
import { qualifiedInviteesOf } from '../referrals';
import { paidWithdrawalOf, requestedWithdrawalOf } from '../withdrawals';

/** What the server's own records say about the user `userId` names, for every task kind at once. */
export function factsOf(userId: AnyColumn | SQL | number) {
  return {
    invitees: qualifiedInviteesOf(userId),
    survey: sql<boolean>`exists (select 1 from ${surveyResponses} where ${surveyResponses.userId} = ${userId})`,
    intro: watchedIntroOf(userId),
    withdrawal: requestedWithdrawalOf(userId),
    /** A paid withdrawal (the first-withdrawal task's condition), so task/list needs no second query for it. */
    paidWithdrawal: paidWithdrawalOf(userId),
    /** Whether the introduction has a video (without one, its task is hidden). */
    introVideo: introHasVideo(),
  };
}

export function toFacts(
  row:
    | {
        invitees: unknown;
        survey: unknown;
        intro: unknown;
        withdrawal: unknown;
        paidWithdrawal: unknown;
        introVideo: unknown;
      }
    | undefined,
) {
  return {
    invitees: Number(row?.invitees ?? 0),
    survey: Boolean(row?.survey),
    intro: Boolean(row?.intro),
    withdrawal: Boolean(row?.withdrawal),
    paidWithdrawal: Boolean(row?.paidWithdrawal),
    introVideo: Boolean(row?.introVideo),
  };
}
export type BaseFacts = ReturnType<typeof toFacts>;

/**
 * The facts only operators' automatic conditions need, each an SQL expression on the user `userId`
 * names: friends who linked a number, withdrawals requested and paid, numbers linked and online.
 * Written with explicit aliases: in a select without a FROM table, drizzle leaves columns unqualified.
 */
export function conditionFactsOf(userId: SQL | number) {
  return {
    qualifiedInvitees: sql<number>`(select count(*)::int from users u where u.inviter_id = ${userId}
      and exists (select 1 from linked_accounts l where l.user_id = u.id))`,
    withdrawals: sql<number>`(select count(*)::int from withdrawals w where w.user_id = ${userId})`,
    paidWithdrawals: sql<number>`(select count(*)::int from withdrawals w where w.user_id = ${userId} and w.state = 'paid')`,
    linked: sql<number>`(select count(*)::int from linked_accounts l where l.user_id = ${userId})`,
    linkedOnline: sql<number>`(select count(*)::int from linked_accounts l where l.user_id = ${userId} and l.status = 'online')`,
  };
}

/**
 * Income counts what the user earned (rewards, rebates once available, online income), not money moved
 * back, and not operators' credits: those are compensation (docs/decisions/rebate-hold.md), so a credit
 * cannot meet an income condition and pay a task reward.
 */
export function incomeSince(userId: SQL | number, since: SQL) {
  return sql<string>`(select coalesce(sum(e.amount), 0)::text from entries e
    join accounts a on a.id = e.account_id
    join postings p on p.id = e.posting_id
    where a.user_id = ${userId} and a.kind = 'wallet' and e.amount > 0
      and p.type in ('task_reward', 'rebate', 'linked_income')
      and e.created_at > ${since})`;
}

export function toConditionFacts(row: Record<string, unknown> | undefined, incomeByDays: Map<number, bigint>) {
  return {
    qualifiedInvitees: Number(row?.qualifiedInvitees ?? 0),
    withdrawals: Number(row?.withdrawals ?? 0),
    paidWithdrawals: Number(row?.paidWithdrawals ?? 0),
    linked: Number(row?.linked ?? 0),
    linkedOnline: Number(row?.linkedOnline ?? 0),
    incomeByDays,
  };
}

/**
 * The facts only operators' automatic conditions need (`conditionFactsOf`), read when a listed task
 * needs them, with income over each period asked for (days back from `now`).
 */
export async function conditionFacts(db: Executor, userId: number, now: Date, incomeDays: number[]) {
  const income = Object.fromEntries(
    [...new Set(incomeDays)].map((days) => [
      `d${days}`,
      incomeSince(userId, sql`${new Date(now.getTime() - days * 86_400_000).toISOString()}::timestamptz`),
    ]),
  );
  const [row] = await db.select({ ...conditionFactsOf(userId), ...income }).from(sql`(select 1) as one`);
  const incomeByDays = new Map<number, bigint>();
  for (const days of incomeDays)
    incomeByDays.set(days, BigInt(String((row as Record<string, unknown>)?.[`d${days}`] ?? '0')));
  return toConditionFacts(row, incomeByDays);
}
export type ConditionFacts = Awaited<ReturnType<typeof conditionFacts>>;
