import {
  type AnyColumn,
  and,
  asc,
  count,
  eq,
  gt,
  inArray,
  isNull,
  lte,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { introViews, sessions, surveyResponses, taskCompletions, tasks, users, withdrawals } from '../../db/schema';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';

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
    invitees: sql<number>`(select ${count()}::int from ${users} where ${users.inviterId} = ${userId})`,
    survey: sql<boolean>`exists (select 1 from ${surveyResponses} where ${surveyResponses.userId} = ${userId})`,
    intro: sql<boolean>`exists (select 1 from ${introViews} where ${introViews.userId} = ${userId})`,
    withdrawal: sql<boolean>`exists (select 1 from ${withdrawals} where ${withdrawals.userId} = ${userId})`,
  };
}

function toFacts(row: { invitees: unknown; survey: unknown; intro: unknown; withdrawal: unknown } | undefined) {
  return {
    invitees: Number(row?.invitees ?? 0),
    survey: Boolean(row?.survey),
    intro: Boolean(row?.intro),
    withdrawal: Boolean(row?.withdrawal),
  };
}

// One row per available task (or one with a null task when none is), the caller's facts on each:
// several tables, so drizzle names every column with its table; in a one-table subquery it would
// not, and a fact's inner `user_id` would compare with itself.
const tasksBySession = preparedPer((db: Db) =>
  db
    .select({
      ...factsOf(sessions.userId),
      task: tasks,
      done: sql<boolean>`exists (select 1 from ${taskCompletions} where ${taskCompletions.userId} = ${sessions.userId} and ${taskCompletions.taskId} = ${tasks.id})`,
    })
    .from(sessions)
    .leftJoin(tasks, availableAt(sql.placeholder('now')))
    .where(liveSessionOf())
    .orderBy(asc(tasks.sort), asc(tasks.id))
    .prepare('kamai_task_list'),
);

/**
 * For the caller of a live session, in one query: its facts, and the tasks available at `now` (by
 * sort order), each with whether the caller completed it. Undefined when the session is not live.
 */
export async function listTasksBySession(db: Db, tokenHash: string, now: Date) {
  const rows = await tasksBySession(db).execute(sessionParams(tokenHash, now));
  const [first] = rows;
  if (!first) return undefined;
  const list: { task: TaskRow; done: boolean }[] = [];
  for (const { task, done } of rows) if (task) list.push({ task, done: Boolean(done) });
  return { facts: toFacts(first), tasks: list };
}

/** Every task not deleted, with how many users were paid it. */
export async function listTasksWithCompletions(db: Executor, id?: number) {
  return db
    .select({
      task: tasks,
      completions: sql<number>`(select count(*)::int from ${taskCompletions} c where c.task_id = ${tasks.id})`,
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

/** The completion's row, or false when the user already had one. */
export async function insertCompletion(db: Executor, values: typeof taskCompletions.$inferInsert) {
  const rows = await db
    .insert(taskCompletions)
    .values(values)
    .onConflictDoNothing()
    .returning({ taskId: taskCompletions.taskId });
  return rows.length > 0;
}

/** What the server's own records say about the user, for every task kind at once. */
export async function userFacts(db: Executor, userId: number) {
  const [row] = await db.select(factsOf(userId)).from(sql`(select 1) as one`);
  return toFacts(row);
}
