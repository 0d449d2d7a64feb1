import {
  type AnyColumn,
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { executeByShape, preparedPer } from '../../db/prepared';
import {
  introViews,
  sessions,
  settings,
  surveyResponses,
  taskCompletions,
  taskProofs,
  tasks,
  users,
  withdrawals,
} from '../../db/schema';
import { type Deliveries, deliveriesInsert } from '../../platform/push.queries';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';
import { qualifiedInviteesOf, rebatePlanOf, toRebatePlan } from '../referrals';

export type TaskRow = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;

/** A task by id, deleted or not. */
export async function findTask(db: Executor, id: number) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row;
}

/** Active, not deleted and inside its time window at `now`. */
function availableAt(now: Date | Placeholder) {
  return and(
    eq(tasks.active, true),
    isNull(tasks.deletedAt),
    or(isNull(tasks.startsAt), lte(tasks.startsAt, now)),
    or(isNull(tasks.endsAt), gt(tasks.endsAt, now)),
  );
}

/** What the server's own records say about the user `userId` names, for every task kind at once. */
function factsOf(userId: AnyColumn | SQL | number) {
  return {
    invitees: qualifiedInviteesOf(userId),
    survey: sql<boolean>`exists (select 1 from ${surveyResponses} where ${surveyResponses.userId} = ${userId})`,
    intro: sql<boolean>`exists (select 1 from ${introViews} where ${introViews.userId} = ${userId})`,
    withdrawal: sql<boolean>`exists (select 1 from ${withdrawals} where ${withdrawals.userId} = ${userId})`,
    /** Whether the introduction has a video (without one, its task is hidden). */
    introVideo: sql<boolean>`exists (select 1 from ${settings} where ${settings.key} = 'intro' and coalesce(${settings.value}->>'videoUrl', '') <> '')`,
  };
}

function toFacts(
  row: { invitees: unknown; survey: unknown; intro: unknown; withdrawal: unknown; introVideo: unknown } | undefined,
) {
  return {
    invitees: Number(row?.invitees ?? 0),
    survey: Boolean(row?.survey),
    intro: Boolean(row?.intro),
    withdrawal: Boolean(row?.withdrawal),
    introVideo: Boolean(row?.introVideo),
  };
}
export type BaseFacts = ReturnType<typeof toFacts>;

/**
 * The facts only operators' automatic conditions need, each an SQL expression on the user `userId`
 * names: friends who linked a number, withdrawals requested and paid, numbers linked and online.
 * Written with explicit aliases: in a select without a FROM table, drizzle leaves columns unqualified.
 */
function conditionFactsOf(userId: SQL | number) {
  return {
    qualifiedInvitees: sql<number>`(select count(*)::int from users u where u.inviter_id = ${userId}
      and exists (select 1 from linked_accounts l where l.user_id = u.id))`,
    withdrawals: sql<number>`(select count(*)::int from withdrawals w where w.user_id = ${userId})`,
    paidWithdrawals: sql<number>`(select count(*)::int from withdrawals w where w.user_id = ${userId} and w.state = 'paid')`,
    linked: sql<number>`(select count(*)::int from linked_accounts l where l.user_id = ${userId})`,
    linkedOnline: sql<number>`(select count(*)::int from linked_accounts l where l.user_id = ${userId} and l.status = 'online')`,
  };
}

/** Income counts what the user earned (rewards, rebates, credits, online income), not money moved back. */
function incomeSince(userId: SQL | number, since: SQL) {
  return sql<string>`(select coalesce(sum(e.amount), 0)::text from entries e
    join accounts a on a.id = e.account_id
    join postings p on p.id = e.posting_id
    where a.user_id = ${userId} and a.kind = 'wallet' and e.amount > 0
      and p.type in ('task_reward', 'rebate', 'revenue', 'linked_income')
      and e.created_at > ${since})`;
}

function toConditionFacts(row: Record<string, unknown> | undefined, incomeByDays: Map<number, bigint>) {
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

export type ProofRow = typeof taskProofs.$inferSelect;
/** What a user is shown of a proof. */
export type ProofShown = Pick<ProofRow, 'id' | 'state' | 'imageUrl' | 'link' | 'reason' | 'createdAt'>;

/** The user's latest proof of a task, locked (a submission's read-then-insert). */
export async function lockLatestProof(db: Executor, userId: number, taskId: number) {
  const [row] = await db
    .select()
    .from(taskProofs)
    .where(and(eq(taskProofs.userId, userId), eq(taskProofs.taskId, taskId)))
    .orderBy(desc(taskProofs.id))
    .limit(1)
    .for('update');
  return row;
}

export async function insertProof(db: Executor, values: typeof taskProofs.$inferInsert) {
  const [row] = await db.insert(taskProofs).values(values).returning();
  if (!row) throw new Error('insert task_proofs returned no row');
  return row;
}

export async function lockProof(db: Executor, id: number) {
  const [row] = await db.select().from(taskProofs).where(eq(taskProofs.id, id)).limit(1).for('update');
  return row;
}

export async function updateProof(db: Executor, id: number, values: Partial<typeof taskProofs.$inferInsert>) {
  const [row] = await db.update(taskProofs).set(values).where(eq(taskProofs.id, id)).returning();
  if (!row) throw new Error('update task_proofs returned no row');
  return row;
}

/** Proofs for the console with the task and the user, by state and task; pending oldest first, else newest first. */
export async function listProofsForAdmin(
  db: Executor,
  filter: { state?: ProofRow['state']; taskId?: number },
  limit: number,
  afterId?: number,
) {
  const ascending = filter.state === 'pending';
  return db
    .select({ proof: taskProofs, username: users.username, titles: tasks.titles, reward: tasks.reward })
    .from(taskProofs)
    .innerJoin(users, eq(users.id, taskProofs.userId))
    .innerJoin(tasks, eq(tasks.id, taskProofs.taskId))
    .where(
      and(
        filter.state ? eq(taskProofs.state, filter.state) : undefined,
        filter.taskId ? eq(taskProofs.taskId, filter.taskId) : undefined,
        afterId === undefined ? undefined : ascending ? gt(taskProofs.id, afterId) : lt(taskProofs.id, afterId),
      ),
    )
    .orderBy(ascending ? asc(taskProofs.id) : desc(taskProofs.id))
    .limit(limit);
}

export async function proofForAdmin(db: Executor, id: number) {
  const [row] = await db
    .select({ proof: taskProofs, username: users.username, titles: tasks.titles, reward: tasks.reward })
    .from(taskProofs)
    .innerJoin(users, eq(users.id, taskProofs.userId))
    .innerJoin(tasks, eq(tasks.id, taskProofs.taskId))
    .where(eq(taskProofs.id, id))
    .limit(1);
  return row;
}

// The caller's facts, once per request: a lateral subquery on the session row (in the outer select
// they were computed again for every task row). Its reference to the session is spelled out: in a
// subquery without joins drizzle leaves columns unqualified, and `user_id` would name the inner table's.
const sessionUser = sql`${sessions}.${sql.identifier(sessions.userId.name)}`;
function sessionFacts(db: Db) {
  const facts = factsOf(sessionUser);
  return (
    db
      .select({
        invitees: facts.invitees.as('invitees'),
        survey: facts.survey.as('survey'),
        intro: facts.intro.as('intro'),
        withdrawal: facts.withdrawal.as('withdrawal'),
        introVideo: facts.introVideo.as('intro_video'),
      })
      .from(sql`(select 1) as one`)
      // A fence (the subquery is one row anyway): without it PostgreSQL pulls the subquery up and runs
      // each fact once per task row again (EXPLAIN ANALYZE: loops = number of tasks).
      .limit(1)
      .as('facts')
  );
}

// One row per available task (or one with a null task when none is), the caller's facts on each,
// and the caller's latest proof of it (task_proofs_user_idx), so proof tasks cost no second query.
const tasksBySession = preparedPer((db: Db) => {
  const facts = sessionFacts(db);
  const proof = db
    .select({
      id: taskProofs.id,
      state: taskProofs.state,
      imageUrl: taskProofs.imageUrl,
      link: taskProofs.link,
      reason: taskProofs.reason,
      createdAt: taskProofs.createdAt,
    })
    .from(taskProofs)
    .where(
      and(eq(taskProofs.userId, sessionUser), eq(taskProofs.taskId, sql`${tasks}.${sql.identifier(tasks.id.name)}`)),
    )
    .orderBy(desc(taskProofs.id))
    .limit(1)
    .as('proof');
  return db
    .select({
      invitees: facts.invitees,
      survey: facts.survey,
      intro: facts.intro,
      withdrawal: facts.withdrawal,
      introVideo: facts.introVideo,
      userId: sessions.userId,
      task: tasks,
      done: sql<boolean>`exists (select 1 from ${taskCompletions} where ${taskCompletions.userId} = ${sessions.userId} and ${taskCompletions.taskId} = ${tasks.id})`,
      proof: {
        id: proof.id,
        state: proof.state,
        imageUrl: proof.imageUrl,
        link: proof.link,
        reason: proof.reason,
        createdAt: proof.createdAt,
      },
    })
    .from(sessions)
    .crossJoinLateral(facts)
    .leftJoin(tasks, availableAt(sql.placeholder('now')))
    .leftJoinLateral(proof, sql`true`)
    .where(liveSessionOf())
    .orderBy(asc(tasks.sort), asc(tasks.id))
    .prepare('kamai_task_list');
});

/**
 * For the caller of a live session, in one query: its facts, and the tasks available at `now` (by
 * sort order), each with whether the caller completed it and its latest proof. Undefined when the
 * session is not live.
 */
export async function listTasksBySession(db: Db, tokenHash: string, now: Date) {
  const rows = await tasksBySession(db).execute(sessionParams(tokenHash, now));
  const [first] = rows;
  if (!first) return undefined;
  const list: { task: TaskRow; done: boolean; proof: ProofShown | undefined }[] = [];
  for (const { task, done, proof } of rows)
    if (task) list.push({ task, done: Boolean(done), proof: proof ?? undefined });
  return { userId: first.userId, facts: toFacts(first), tasks: list };
}

/** Every task not deleted, with how many users were paid it and how many proofs wait for review. */
export async function listTasksWithCompletions(db: Executor, id?: number) {
  return db
    .select({
      task: tasks,
      completions: sql<number>`(select count(*)::int from ${taskCompletions} c where c.task_id = ${tasks.id})`,
      // "tasks".id spelled out: drizzle leaves ${tasks.id} unqualified here, and it would name p.id.
      pendingProofs: sql<number>`(select count(*)::int from task_proofs p where p.task_id = "tasks"."id" and p.state = 'pending')`,
    })
    .from(tasks)
    .where(and(isNull(tasks.deletedAt), id === undefined ? undefined : eq(tasks.id, id)))
    .orderBy(asc(tasks.section), asc(tasks.sort), asc(tasks.id));
}

export async function insertTask(db: Executor, values: NewTask) {
  const [row] = await db.insert(tasks).values(values).returning();
  if (!row) throw new Error('insert tasks returned no row');
  return row;
}

export async function updateTask(db: Executor, id: number, values: Partial<NewTask>) {
  const [row] = await db.update(tasks).set(values).where(eq(tasks.id, id)).returning();
  return row;
}

/** Locks a task row for an admin read-modify-write. */
export async function lockTask(db: Executor, id: number) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1).for('update');
  return row;
}

export async function completedTaskIds(db: Executor, userId: number, taskIds: number[]) {
  if (taskIds.length === 0) return new Set<number>();
  const rows = await db
    .select({ taskId: taskCompletions.taskId })
    .from(taskCompletions)
    .where(and(eq(taskCompletions.userId, userId), inArray(taskCompletions.taskId, taskIds)));
  return new Set(rows.map((r) => r.taskId));
}

export async function hasCompletion(db: Executor, userId: number, taskId: number) {
  return (await completedTaskIds(db, userId, [taskId])).has(taskId);
}

// A claim's reads, named so that PostgreSQL parses and plans them once per connection. Built per call:
// drizzle binds a prepared query to the transaction it was built on.
const claimUser = sql`${sql.placeholder('userId')}::bigint`;
const claimTask = sql`${tasks}.${sql.identifier(tasks.id.name)}`;
const claimCondition = sql`${tasks}.${sql.identifier(tasks.verification.name)}->'condition'`;

/** A fact its condition type needs, else null: the other facts are not computed. */
const onlyFor = <T>(type: string, fact: SQL<T>) =>
  sql<T | null>`case when ${claimCondition}->>'type' = ${type} then ${fact} end`;

function claimQuery(db: Executor) {
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
    .limit(1)
    .prepare('kamai_task_claim');
}

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

/**
 * Records a paid claim in one statement: the completion row (unless the user has one), `push` only
 * when the row is new, and the user's wallet balance after the caller's postings. `created` false:
 * the user had completed the task already.
 */
export async function recordCompletion(
  db: Executor,
  values: typeof taskCompletions.$inferInsert,
  push: Deliveries | undefined,
): Promise<{ created: boolean; balance: bigint }> {
  const completed = db
    .$with('completed')
    .as(db.insert(taskCompletions).values(values).onConflictDoNothing().returning({ taskId: taskCompletions.taskId }));
  const pushed = push
    ? [db.$with('completed_push', {}).as(deliveriesInsert(push, sql`exists (select 1 from ${completed})`))]
    : [];
  const [row] = await executeByShape(
    db
      .with(completed, ...pushed)
      .select({
        created: sql<boolean>`exists (select 1 from ${completed})`,
        balance: sql<string>`(select w.balance::text from accounts w where w.user_id = ${values.userId} and w.kind = 'wallet')`,
      })
      .from(sql`(select 1) as one`),
    'kamai_task_completion',
  );
  return { created: Boolean(row?.created), balance: BigInt(row?.balance ?? '0') };
}
