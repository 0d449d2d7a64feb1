// Exists only for speed: benchmark 2, docs/performance.md ("Benchmark 2: authenticated reads"). task/list
// checks the caller's session in the query that reads its tasks (docs/decisions/authenticated-reads.md),
// and its rows are decoded by the small reader below instead of drizzle's per-row mapping
// (`preparedRows`, db/hot-reads.ts; docs/decisions/hot-read-yardstick.md).
import {
  DEFAULT_LOCALE,
  type Locale,
  type StoredTaskVerification,
  SYSTEM_TASK_IDS,
  type TaskKind,
  type TaskProofState,
  type TaskSection,
} from '@kamai/contract';
import { type AnyColumn, and, asc, desc, eq, gt, isNull, lte, or, type Placeholder, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type ColumnsOf, preparedRows, type TextRow } from '../../db/hot-reads';
import { sessions, taskCompletions, taskProofs, tasks, users } from '../../db/schema';
import { liveSessionOf, sessionParams } from '../../platform/sessions.queries';
import { type BaseFacts, factsOf } from './tasks.facts.queries';
import type { ProofShown } from './tasks.queries';

/** Active, not deleted and inside its time window at `now`. */
function availableAt(now: Date | Placeholder) {
  return and(
    eq(tasks.active, true),
    isNull(tasks.deletedAt),
    or(isNull(tasks.startsAt), lte(tasks.startsAt, now)),
    or(isNull(tasks.endsAt), gt(tasks.endsAt, now)),
  );
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

// One row per available task (or one with a null task when none is), the caller's facts on each,
// and, for a proof task, the caller's latest proof of it (task_proofs_user_idx), so proof tasks cost no
// second query. Built by drizzle from the one definition of a live session and of each condition; its
// rows are decoded by `toTaskList` by the names of its columns, not by drizzle's per-row mapping
// (`preparedRows`). Only what the answer shows (the title and description already in the reader's
// locale) and what its state is computed from.
function tasksBySessionQuery(db: Db) {
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
  };
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

/** Where each column of `tasksBySessionQuery` is in its rows. */
type ListColumns = ColumnsOf<ReturnType<typeof tasksBySessionQuery>['_']['selectedFields']>;

/** The caller's facts, the same on every row of `tasksBySessionQuery`: read from the first only. */
function toFacts(row: TextRow, col: ListColumns): BaseFacts {
  return {
    invitees: Number(row[col.invitees] ?? 0),
    survey: row[col.survey] === 't',
    intro: row[col.intro] === 't',
    withdrawal: row[col.withdrawal] === 't',
    paidWithdrawal: row[col.paidWithdrawal] === 't',
    introVideo: row[col.introVideo] === 't',
  };
}

/**
 * Reads the task of one row of `tasksBySessionQuery` (PostgreSQL's text values); undefined on the one
 * row of a caller with no available task. The caller's id and facts are read once (`toTaskList`).
 */
function toListedTask(row: TextRow, col: ListColumns): ListedTask | undefined {
  const id = row[col.id];
  if (id === null || id === undefined) return undefined;
  const taskLink = row[col.link];
  const proofId = row[col.proofId];
  return {
    id: Number(id),
    section: row[col.section] as TaskSection,
    kind: row[col.kind] as TaskKind,
    title: row[col.title] ?? '',
    description: row[col.description] ?? '',
    link: taskLink ? taskLink : null,
    reward: BigInt(row[col.reward] as string),
    startsAt: row[col.startsAt] ?? null,
    endsAt: row[col.endsAt] ?? null,
    verification: JSON.parse(row[col.verification] as string) as StoredTaskVerification,
    done: row[col.done] === 't',
    proof:
      proofId === null || proofId === undefined
        ? null
        : {
            id: Number(proofId),
            state: row[col.proofState] as TaskProofState,
            imageUrl: row[col.proofImageUrl] ?? null,
            link: row[col.proofLink] ?? null,
            reason: row[col.proofReason] ?? null,
            createdAt: row[col.proofCreatedAt] as string,
          },
  };
}

/**
 * The rows of `tasksBySessionQuery` as the caller, its facts and its tasks; undefined when there is
 * none. The caller's columns repeat on every row, so they are read once: one object per task.
 */
function toTaskList(rows: TextRow[], col: ListColumns) {
  const first = rows[0];
  if (!first) return undefined;
  const tasks: ListedTask[] = [];
  for (const row of rows) {
    const task = toListedTask(row, col);
    if (task) tasks.push(task);
  }
  return { userId: Number(first[col.userId]), facts: toFacts(first, col), tasks };
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
