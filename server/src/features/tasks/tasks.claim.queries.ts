import { eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { builtOnce, builtPerShape, type StatementPart } from '../../db/prepared';
import { taskCompletions, tasks } from '../../db/schema';
import { type Deliveries, deliveriesPart } from '../../platform/push.queries';
import { rebatePlanOf, toRebatePlan } from '../referrals';
import { conditionFactsOf, factsOf, incomeSince, toConditionFacts, toFacts } from './tasks.facts.queries';

// A claim's reads, named so that PostgreSQL parses and plans them once per connection, and built by
// drizzle once per process (`builtOnce`: it runs in the claim's transaction; benchmark 4, docs/performance.md).
const claimUser = sql`${sql.placeholder('userId')}::bigint`;
const claimTask = sql`${tasks}.${sql.identifier(tasks.id.name)}`;
const claimCondition = sql`${tasks}.${sql.identifier(tasks.verification.name)}->'condition'`;

/** A fact its condition type needs, else null: the other facts are not computed. */
const onlyFor = <T>(type: string, fact: SQL<T>) =>
  sql<T | null>`case when ${claimCondition}->>'type' = ${type} then ${fact} end`;

const claimQuery = builtOnce('kamai_task_claim', (db: Executor) => {
  const extra = conditionFactsOf(claimUser);
  const since = sql`${sql.placeholder('now')}::timestamptz - make_interval(secs => (${claimCondition}->>'days')::int * 86400)`;
  return db
    .select({
      task: tasks,
      done: sql<boolean>`exists (select 1 from task_completions c where c.user_id = ${claimUser} and c.task_id = ${claimTask})`,
      proofState: sql<
        string | null
      >`(select p.state from task_proofs p where p.user_id = ${claimUser} and p.task_id = ${claimTask} order by p.id desc limit 1)`,
      ...factsOf(claimUser),
      qualifiedInvitees: onlyFor('invites', extra.qualifiedInvitees),
      withdrawals: onlyFor('withdrawals', extra.withdrawals),
      paidWithdrawals: onlyFor('withdrawals', extra.paidWithdrawals),
      linked: onlyFor('linked_accounts', extra.linked),
      linkedOnline: onlyFor('linked_accounts', extra.linkedOnline),
      income: onlyFor('income', incomeSince(claimUser, since)),
      rebatePlan: rebatePlanOf(claimUser),
    })
    .from(tasks)
    .where(eq(tasks.id, sql.placeholder('taskId')))
    .limit(1);
});

/**
 * Everything a claim of task `taskId` by the user decides on, in one statement: the task (deleted or
 * not), whether the user completed it, the state of the user's latest proof of it, the user's facts
 * (those its condition needs; income over its own period back from `now`), and the rebate plan its
 * reward would pay. Undefined when there is no such task.
 */
export async function findClaim(db: Executor, userId: number, taskId: number, now: Date) {
  const [row] = await claimQuery(db).execute({ userId, taskId, now: now.toISOString() });
  if (!row) return undefined;
  const condition = row.task.verification.kind === 'automatic' ? row.task.verification.condition : undefined;
  const incomeByDays = new Map<number, bigint>();
  if (condition?.type === 'income') incomeByDays.set(condition.days, BigInt(String(row.income ?? '0')));
  return {
    task: row.task,
    done: Boolean(row.done),
    proofState: row.proofState,
    facts: { ...toFacts(row), extra: toConditionFacts(row, incomeByDays) },
    plan: toRebatePlan(row.rebatePlan),
  };
}

// Built once per shape (with a push or without) and named by its text: every value is a placeholder.
const runCompletion = builtPerShape('kamai_task_completion');

/**
 * Pays a claim and records it in one statement: `credit` (the CTE `credit`: the reward and its
 * rebates, `creditWithRebates` of the referrals feature) runs first; the completion row is written
 * when the credit was new (unless the user has one), and `push` only when the row is new. `credited`
 * false: the reward's key was posted before; `completed` false: the user had completed the task.
 * `balance`: the wallet after the reward.
 */
export async function payCompletion(
  db: Executor,
  values: { userId: number; taskId: number },
  credit: StatementPart,
  push: Deliveries | undefined,
): Promise<{ credited: boolean; completed: boolean; balance: bigint }> {
  const pushed = push
    ? deliveriesPart('completed_push', push, () => sql`exists (select 1 from ${sql.identifier('completed')})`)
    : undefined;
  const [result] = await runCompletion(
    db,
    `${credit.shape};${pushed?.shape ?? ''}`,
    (db) => {
      const completed = db.$with('completed', {}).as(
        sql`insert into ${taskCompletions} (${sql.identifier(taskCompletions.userId.name)}, ${sql.identifier(taskCompletions.taskId.name)}, ${sql.identifier(taskCompletions.postingId.name)})
          select ${sql.placeholder('userId')}::bigint, ${sql.placeholder('taskId')}::bigint, c.posting
          from ${sql.identifier(CREDIT)} c where c.created
          on conflict do nothing
          returning ${sql.identifier(taskCompletions.taskId.name)}`,
      );
      return db
        .with(...credit.ctes(db), completed, ...(pushed?.ctes(db) ?? []))
        .select({
          credited: sql<boolean>`coalesce((select c.created from ${sql.identifier(CREDIT)} c), false)`,
          completed: sql<boolean>`exists (select 1 from ${completed})`,
          balance: sql<string>`(select c.balance::text from ${sql.identifier(CREDIT)} c)`,
        })
        .from(sql`(select 1) as one`);
    },
    { ...credit.params, ...pushed?.params, userId: values.userId, taskId: values.taskId },
  );
  return {
    credited: Boolean(result?.credited),
    completed: Boolean(result?.completed),
    balance: BigInt(result?.balance ?? '0'),
  };
}

/** The name `payCompletion` gives its credit CTE. */
export const CREDIT = 'credit';
