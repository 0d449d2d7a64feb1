import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, type Placeholder, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { sessions, taskCompletions, taskProofs, tasks, users } from '../../db/schema';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';
import { factsOf, toFacts } from './tasks.facts.queries';

export { type BaseFacts, type ConditionFacts, conditionFacts } from './tasks.facts.queries';

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
