import { encodeRejectReason } from '@kamai/contract';
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { taskCompletions, taskProofs, tasks, users } from '../../db/schema';

export { type BaseFacts, type ConditionFacts, conditionFacts } from './tasks.facts.queries';

export type TaskRow = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;

/** A task by id, deleted or not. */
export async function findTask(db: Executor, id: number) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row;
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

/** A task reward's posting and the wallet it paid, locked against a concurrent reversal; none when it is no task reward. */
export async function lockRewardPosting(db: Executor, postingId: number) {
  const result = await db.execute(sql`
    select p.id, p.ref, a.user_id, e.amount::text as amount
    from postings p
    join entries e on e.posting_id = p.id and e.amount > 0
    join accounts a on a.id = e.account_id and a.kind = 'wallet'
    where p.id = ${postingId} and p.type = 'task_reward'
    for update of p`);
  const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  if (!row) return undefined;
  return {
    postingId: Number(row.id),
    userId: Number(row.user_id),
    amount: BigInt(String(row.amount)),
    taskId: Number((row.ref as { taskId?: number } | null)?.taskId ?? 0),
  };
}

/**
 * The deleted account's proofs still waiting for review are rejected, with the reason the user would
 * read in their language (`account_deleted`): no one is left to credit (docs/decisions/unclaimed-money.md).
 * Answers how many.
 */
export async function rejectPendingProofs(db: Executor, userId: number, at: Date): Promise<number> {
  const rejected = await db
    .update(taskProofs)
    .set({ state: 'rejected', reason: encodeRejectReason('account_deleted', ''), reviewedAt: at })
    .where(and(eq(taskProofs.userId, userId), eq(taskProofs.state, 'pending')))
    .returning({ id: taskProofs.id });
  return rejected.length;
}

/** A deleted account's proofs keep their state and lose their picture and link. */
export async function clearUserProofs(db: Executor, userId: number) {
  await db.update(taskProofs).set({ imageUrl: null, link: null }).where(eq(taskProofs.userId, userId));
}

/** The user's completed tasks with their titles, in completion order (the data export). */
export async function completionsOf(db: Executor, userId: number) {
  return db
    .select({ taskId: taskCompletions.taskId, titles: tasks.titles, createdAt: taskCompletions.createdAt })
    .from(taskCompletions)
    .innerJoin(tasks, eq(tasks.id, taskCompletions.taskId))
    .where(eq(taskCompletions.userId, userId))
    .orderBy(asc(taskCompletions.createdAt), asc(taskCompletions.taskId));
}

/** Every proof the user sent, oldest first (the data export). */
export async function proofsOf(db: Executor, userId: number) {
  return db.select().from(taskProofs).where(eq(taskProofs.userId, userId)).orderBy(asc(taskProofs.id));
}
