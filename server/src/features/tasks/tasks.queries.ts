import {
  DEFAULT_LOCALE,
  encodeRejectReason,
  type Locale,
  type StoredTaskVerification,
  SYSTEM_TASK_IDS,
  type TaskKind,
  type TaskProofState,
  type TaskSection,
} from '@kamai/contract';
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
  sql,
} from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { preparedRows, type TextRow } from '../../db/prepared';
import { sessions, taskCompletions, taskProofs, tasks, users } from '../../db/schema';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';
import { type BaseFacts, factsOf } from './tasks.facts.queries';

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
        paidWithdrawal: facts.paidWithdrawal.as('paid_withdrawal'),
        introVideo: facts.introVideo.as('intro_video'),
      })
      .from(sql`(select 1) as one`)
      // A fence (the subquery is one row anyway): without it PostgreSQL pulls the subquery up and runs
      // each fact once per task row again (EXPLAIN ANALYZE: loops = number of tasks).
      .limit(1)
      .as('facts')
  );
}

/** A task's text in the reader's locale (the `locale` placeholder), English when it has none there. */
function inLocale(texts: typeof tasks.titles | typeof tasks.descriptions | typeof tasks.links) {
  return sql<string>`coalesce(nullif(${texts} ->> ${sql.placeholder('locale')}::text, ''), ${texts} ->> ${DEFAULT_LOCALE}::text, '')`;
}

/** A timestamp as the answer writes it (`Date.toISOString()`: UTC, milliseconds), null when null. */
function isoTime(column: AnyColumn) {
  return sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The columns of task/list's query, in the order `toFacts` and `toListedTask` read them. Only what the
 * answer shows (the title and description already in the reader's locale) and what its state is
 * computed from.
 */
const LIST_COLUMNS = [
  'userId',
  'invitees',
  'survey',
  'intro',
  'withdrawal',
  'paidWithdrawal',
  'introVideo',
  'id',
  'section',
  'kind',
  'title',
  'description',
  'link',
  'reward',
  'startsAt',
  'endsAt',
  'verification',
  'done',
  'proofId',
  'proofState',
  'proofImageUrl',
  'proofLink',
  'proofReason',
  'proofCreatedAt',
] as const;

// One row per available task (or one with a null task when none is), the caller's facts on each,
// and, for a proof task, the caller's latest proof of it (task_proofs_user_idx), so proof tasks cost no
// second query. Built by drizzle from the one definition of a live session and of each condition; its
// rows are decoded by `toTaskList`, not by drizzle's per-row mapping (`preparedRows`).
export function tasksBySessionQuery(db: Db) {
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
      and(
        eq(taskProofs.userId, sessionUser),
        eq(taskProofs.taskId, sql`${tasks}.${sql.identifier(tasks.id.name)}`),
        // Only a proof task shows its proof: an automatic one skips the probe.
        sql`${tasks}.${sql.identifier(tasks.verification.name)} ->> 'kind' = 'proof'`,
      ),
    )
    .orderBy(desc(taskProofs.id))
    .limit(1)
    .as('proof');
  const columns = {
    userId: sessions.userId,
    invitees: facts.invitees,
    survey: facts.survey,
    intro: facts.intro,
    withdrawal: facts.withdrawal,
    paidWithdrawal: facts.paidWithdrawal,
    introVideo: facts.introVideo,
    id: tasks.id,
    section: tasks.section,
    kind: tasks.kind,
    title: inLocale(tasks.titles),
    description: inLocale(tasks.descriptions),
    link: inLocale(tasks.links),
    reward: tasks.reward,
    startsAt: isoTime(tasks.startsAt),
    endsAt: isoTime(tasks.endsAt),
    verification: tasks.verification,
    // A first-time task of a returning identity was received already by that phone or e-mail (its
    // claim answers `task_already_claimed`): it shows as completed, never as claimable.
    done: sql<boolean>`(exists (select 1 from ${taskCompletions} where ${taskCompletions.userId} = ${sessions.userId} and ${taskCompletions.taskId} = ${tasks.id})
      or (${tasks.id} in (${sql.raw(Object.values(SYSTEM_TASK_IDS).join(', '))}) and exists (select 1 from ${users} where ${users.id} = ${sessions.userId} and ${users.returningIdentity})))`,
    proofId: proof.id,
    proofState: proof.state,
    proofImageUrl: proof.imageUrl,
    proofLink: proof.link,
    proofReason: proof.reason,
    proofCreatedAt: isoTime(proof.createdAt),
  } satisfies Record<(typeof LIST_COLUMNS)[number], unknown>;
  if (Object.keys(columns).join() !== LIST_COLUMNS.join()) throw new Error('task/list: columns out of order');
  return db
    .select(columns)
    .from(sessions)
    .crossJoinLateral(facts)
    .leftJoin(tasks, availableAt(sql.placeholder('now')))
    .leftJoinLateral(proof, sql`true`)
    .where(liveSessionOf())
    .orderBy(asc(tasks.sort), asc(tasks.id));
}

/** A task as task/list shows it: its texts in the reader's locale, its times as the answer writes them. */
export interface ListedTask {
  id: number;
  section: TaskSection;
  kind: TaskKind;
  title: string;
  description: string;
  /** The task's page in the reader's locale, else English, else null. */
  link: string | null;
  /** Paise. */
  reward: bigint;
  startsAt: string | null;
  endsAt: string | null;
  verification: StoredTaskVerification;
  done: boolean;
  /** The caller's latest proof of a proof task (null for an automatic one), as stored; `createdAt` as the answer writes it. */
  proof: (Omit<ProofShown, 'createdAt'> & { createdAt: string }) | null;
}

/** The caller's facts, the same on every row of `tasksBySessionQuery`: read from the first only. */
function toFacts(row: TextRow): BaseFacts {
  return {
    invitees: Number(row[1] ?? 0),
    survey: row[2] === 't',
    intro: row[3] === 't',
    withdrawal: row[4] === 't',
    paidWithdrawal: row[5] === 't',
    introVideo: row[6] === 't',
  };
}

/**
 * Reads the task of one row of `tasksBySessionQuery` (PostgreSQL's text values, in LIST_COLUMNS order);
 * undefined on the one row of a caller with no available task. The first seven columns, skipped here,
 * are the caller's id and facts (`toFacts`).
 */
function toListedTask(row: TextRow): ListedTask | undefined {
  const [
    ,
    ,
    ,
    ,
    ,
    ,
    ,
    id,
    section,
    kind,
    title,
    description,
    taskLink,
    reward,
    startsAt,
    endsAt,
    verification,
    done,
    proofId,
    proofState,
    imageUrl,
    link,
    reason,
    proofAt,
  ] = row;
  if (id === null || id === undefined) return undefined;
  return {
    id: Number(id),
    section: section as TaskSection,
    kind: kind as TaskKind,
    title: title ?? '',
    description: description ?? '',
    link: taskLink ? taskLink : null,
    reward: BigInt(reward as string),
    startsAt: startsAt ?? null,
    endsAt: endsAt ?? null,
    verification: JSON.parse(verification as string) as StoredTaskVerification,
    done: done === 't',
    proof:
      proofId === null || proofId === undefined
        ? null
        : {
            id: Number(proofId),
            state: proofState as TaskProofState,
            imageUrl: imageUrl ?? null,
            link: link ?? null,
            reason: reason ?? null,
            createdAt: proofAt as string,
          },
  };
}

/**
 * The rows of `tasksBySessionQuery` as the caller, its facts and its tasks; undefined when there is
 * none. The caller's columns repeat on every row, so they are read once: one object per task.
 */
function toTaskList(rows: TextRow[]) {
  const first = rows[0];
  if (!first) return undefined;
  const tasks: ListedTask[] = [];
  for (const row of rows) {
    const task = toListedTask(row);
    if (task) tasks.push(task);
  }
  return { userId: Number(first[0]), facts: toFacts(first), tasks };
}

const tasksBySession = preparedRows('kamai_task_list', tasksBySessionQuery, toTaskList);

/**
 * For the caller of a live session, in one query: its facts, and the tasks available at `now` (by
 * sort order) with their texts in `locale`, each with whether the caller completed it and its latest
 * proof. Undefined when the session is not live.
 */
export function listTasksBySession(db: Db, tokenHash: string, now: Date, locale: Locale) {
  return tasksBySession(db, { ...sessionParams(tokenHash, now), locale });
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
