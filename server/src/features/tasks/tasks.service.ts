import {
  type AdminTask,
  type AdminTaskProofItem,
  DEFAULT_LOCALE,
  formatRupees,
  type Locale,
  type LocaleTexts,
  type PageQuery,
  parseRupees,
  type StoredTaskCondition,
  TASK_SECTIONS,
  type TaskItem,
  type TaskProofState,
  type TaskProofView,
  type TaskSection,
  type TaskState,
  type TaskVerification,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, encodeCursor, isRowId } from '../../platform/cursor';
import { AppError, isUniqueViolation } from '../../platform/errors';
import { notify } from '../../platform/notifications.queries';
import { walletBalance } from '../wallet';
import { completeTask, isAvailable } from './tasks.credit';
import * as q from './tasks.queries';

type Facts = q.BaseFacts & { extra?: q.ConditionFacts };

interface Actor {
  id: number;
  requestId: string;
}

export interface TaskInput {
  section?: TaskSection;
  reward?: bigint;
  titles?: LocaleTexts;
  descriptions?: LocaleTexts;
  targetCount?: number;
  startsAt?: string | null;
  endsAt?: string | null;
  sort?: number;
  active?: boolean;
  verification?: TaskVerification;
}

function textIn(texts: LocaleTexts, locale: Locale): string {
  return texts[locale] || texts[DEFAULT_LOCALE] || '';
}

/** Drops empty texts so a blank locale falls back to English. */
function cleanTexts(texts: LocaleTexts | undefined): LocaleTexts | undefined {
  if (!texts) return undefined;
  return Object.fromEntries(Object.entries(texts).filter(([, text]) => Boolean(text)));
}

/** The condition of an automatic task, or undefined for a proof task. */
function conditionOf(task: q.TaskRow): StoredTaskCondition | undefined {
  return task.verification.kind === 'automatic' ? task.verification.condition : undefined;
}

/** Conditions that need facts beyond the ones task/list reads in its one query. */
function needsExtraFacts(condition: StoredTaskCondition | undefined): boolean {
  if (!condition) return false;
  switch (condition.type) {
    case 'linked_accounts':
    case 'income':
      return true;
    case 'invites':
      return condition.qualified;
    case 'withdrawals':
      return condition.paid || condition.count > 1;
    default:
      return false;
  }
}

async function withExtraFacts(db: Executor, userId: number, now: Date, base: q.BaseFacts, list: q.TaskRow[]) {
  const conditions = list.map(conditionOf).filter(needsExtraFacts) as StoredTaskCondition[];
  if (conditions.length === 0) return base as Facts;
  const incomeDays = conditions.flatMap((c) => (c.type === 'income' ? [c.days] : []));
  return { ...base, extra: await q.conditionFacts(db, userId, now, incomeDays) } as Facts;
}

/** How far the user is toward an automatic condition, and how far it goes, by the server's own records. */
function measure(condition: StoredTaskCondition, facts: Facts): { progress: number; target: number } {
  const extra = facts.extra;
  switch (condition.type) {
    case 'register':
      return { progress: 1, target: 1 };
    case 'survey':
      return { progress: facts.survey ? 1 : 0, target: 1 };
    case 'intro':
      // Without a video there is nothing to watch, and the task is not shown.
      return { progress: facts.intro && facts.introVideo ? 1 : 0, target: 1 };
    case 'invites': {
      const count = condition.qualified ? (extra?.qualifiedInvitees ?? 0) : facts.invitees;
      return { progress: Math.min(count, condition.count), target: condition.count };
    }
    case 'withdrawals': {
      // Any request counts unless `paid` asks for paid ones: the task is to make one.
      const made = condition.paid
        ? (extra?.paidWithdrawals ?? 0)
        : condition.count > 1
          ? (extra?.withdrawals ?? 0)
          : Number(facts.withdrawal);
      return { progress: Math.min(made, condition.count), target: condition.count };
    }
    case 'linked_accounts': {
      const count = condition.online ? (extra?.linkedOnline ?? 0) : (extra?.linked ?? 0);
      return { progress: Math.min(count, condition.count), target: condition.count };
    }
    case 'income': {
      const earned = extra?.incomeByDays.get(condition.days) ?? 0n;
      const wanted = parseRupees(condition.amount) ?? 0n;
      return { progress: earned >= wanted ? 1 : 0, target: 1 };
    }
  }
}

/** Proof tasks never meet a condition: only an operator's approval pays them. */
function conditionMet(task: q.TaskRow, facts: Facts): boolean {
  const condition = conditionOf(task);
  if (!condition) return false;
  const { progress, target } = measure(condition, facts);
  return progress >= target;
}

/** A task whose condition is the introduction is hidden while there is no video. */
function hidden(task: q.TaskRow, facts: Facts): boolean {
  return conditionOf(task)?.type === 'intro' && !facts.introVideo;
}

/** The stored verification of an operator's task; a count condition's count is its target. */
function targetOf(verification: TaskVerification): number {
  if (verification.kind === 'proof') return 1;
  const c = verification.condition;
  return 'count' in c ? c.count : 1;
}

function toProofView(proof: q.ProofRow): TaskProofView {
  return {
    id: proof.id,
    state: proof.state,
    imageUrl: proof.imageUrl,
    link: proof.link,
    reason: proof.reason,
    createdAt: proof.createdAt.toISOString(),
  };
}

function toAdminTask(task: q.TaskRow, completions: number, pendingProofs = 0): AdminTask {
  return {
    id: task.id,
    section: task.section,
    kind: task.kind,
    reward: formatRupees(task.reward),
    titles: task.titles,
    descriptions: task.descriptions,
    targetCount: task.targetCount,
    startsAt: task.startsAt?.toISOString() ?? null,
    endsAt: task.endsAt?.toISOString() ?? null,
    sort: task.sort,
    active: task.active,
    system: task.system,
    verification: task.verification,
    completions,
    pendingProofs,
  };
}

const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

export function createTasksService({
  db,
  now,
  uploads,
}: {
  db: Db;
  now: () => Date;
  /** Whether an uploaded file exists (a proof's screenshot must be one). */
  uploads: { exists(url: string): Promise<boolean> };
}) {
  /**
   * The caller's available tasks in Home's section order, with progress and state; the caller is
   * found by its session's token hash (one query checks both).
   */
  async function list(sessionHash: string, locale: Locale) {
    const at = now();
    const found = await q.listTasksBySession(db, sessionHash, at);
    if (!found) throw new AppError('unauthorized');
    const visible = found.tasks.filter(({ task }) => !hidden(task, found.facts));
    const facts = await withExtraFacts(
      db,
      found.userId,
      at,
      found.facts,
      visible.filter((t) => !t.done).map((t) => t.task),
    );
    const proofTaskIds = visible.filter((t) => t.task.verification.kind === 'proof').map((t) => t.task.id);
    const proofs = await q.latestProofs(db, found.userId, proofTaskIds);
    const items = visible.map(({ task, done: completed }): TaskItem & { section: TaskSection } => {
      const proof = proofs.get(task.id);
      const condition = conditionOf(task);
      const measured = condition ? measure(condition, facts) : { progress: 0, target: 1 };
      const state: TaskState = completed
        ? 'completed'
        : proof?.state === 'pending'
          ? 'review'
          : condition && measured.progress >= measured.target
            ? 'claimable'
            : 'incomplete';
      return {
        id: task.id,
        section: task.section,
        kind: task.kind,
        title: textIn(task.titles, locale),
        description: textIn(task.descriptions, locale),
        reward: formatRupees(task.reward),
        targetCount: measured.target,
        progress: completed ? measured.target : measured.progress,
        state,
        startsAt: task.startsAt?.toISOString() ?? null,
        endsAt: task.endsAt?.toISOString() ?? null,
        verification: task.verification,
        proof: proof ? toProofView(proof) : null,
      };
    });
    return {
      sections: TASK_SECTIONS.map((section) => ({ section, items: items.filter((i) => i.section === section) })),
    };
  }

  /**
   * Claims a task's reward once, when the server's records satisfy its automatic condition. A proof
   * task is never claimed: its reward comes with the operator's approval.
   */
  async function finish(userId: number, taskId: number) {
    return db
      .transaction(async (tx) => {
        const at = now();
        const task = await q.findTask(tx, taskId);
        if (!task || task.deletedAt) throw new AppError('task_not_found');
        if (await q.hasCompletion(tx, userId, taskId)) throw new AppError('task_already_claimed');
        if (!isAvailable(task, at)) throw new AppError('task_not_active');
        if (task.verification.kind === 'proof') {
          const latest = (await q.latestProofs(tx, userId, [taskId])).get(taskId);
          throw new AppError(latest?.state === 'pending' ? 'task_under_review' : 'task_proof_required');
        }
        const base = await q.userFacts(tx, userId);
        if (hidden(task, base)) throw new AppError('task_not_active');
        const facts = await withExtraFacts(tx, userId, at, base, [task]);
        if (!conditionMet(task, facts)) throw new AppError('task_condition_unmet');
        const reward = await completeTask(tx, userId, task);
        return { taskId, reward: formatRupees(reward), balance: formatRupees(await walletBalance(tx, userId)) };
      })
      .catch((error: unknown) => {
        // A concurrent claim that got past the checks meets the completion's primary key.
        if (isUniqueViolation(error)) throw new AppError('task_already_claimed');
        throw error;
      });
  }

  function checkWindow(startsAt: Date | null | undefined, endsAt: Date | null | undefined) {
    if (startsAt && endsAt && endsAt <= startsAt) {
      throw new AppError('validation_failed', { fields: { endsAt: 'validation_failed' } });
    }
  }

  async function adminAdd(
    actor: Actor,
    input: TaskInput & { section: TaskSection; reward: bigint; titles: LocaleTexts; verification: TaskVerification },
  ) {
    const startsAt = toDate(input.startsAt) ?? null;
    const endsAt = toDate(input.endsAt) ?? null;
    checkWindow(startsAt, endsAt);
    return db.transaction(async (tx) => {
      const task = await q.insertTask(tx, {
        section: input.section,
        kind: 'custom',
        titles: cleanTexts(input.titles) ?? {},
        descriptions: cleanTexts(input.descriptions) ?? {},
        reward: input.reward,
        verification: input.verification,
        targetCount: targetOf(input.verification),
        startsAt,
        endsAt,
        sort: input.sort ?? 0,
        active: input.active ?? true,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.add',
        target: `task:${task.id}`,
        after: toAdminTask(task, 0),
        requestId: actor.requestId,
      });
      return { id: task.id };
    });
  }

  async function adminEdit(actor: Actor, input: TaskInput & { id: number }) {
    return db.transaction(async (tx) => {
      const task = await q.lockTask(tx, input.id);
      if (!task || task.deletedAt) throw new AppError('task_not_found');
      if (task.system && input.targetCount !== undefined && input.targetCount !== task.targetCount) {
        throw new AppError('system_task_locked', { fields: { targetCount: 'system_task_locked' } });
      }
      if (task.system && input.verification !== undefined) {
        throw new AppError('system_task_locked', { fields: { verification: 'system_task_locked' } });
      }
      const startsAt = toDate(input.startsAt);
      const endsAt = toDate(input.endsAt);
      checkWindow(startsAt === undefined ? task.startsAt : startsAt, endsAt === undefined ? task.endsAt : endsAt);
      const changes: Partial<q.NewTask> = {
        section: input.section,
        reward: input.reward,
        titles: cleanTexts(input.titles),
        descriptions: cleanTexts(input.descriptions),
        // An operator task's target follows its condition; a system task's is fixed.
        targetCount: task.system ? undefined : input.verification ? targetOf(input.verification) : undefined,
        verification: input.verification,
        startsAt,
        endsAt,
        sort: input.sort,
        active: input.active,
      };
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const updated = Object.keys(defined).length > 0 ? await q.updateTask(tx, task.id, defined) : task;
      if (!updated) throw new AppError('task_not_found');
      const [row] = await q.listTasksWithCompletions(tx, task.id);
      const completions = row?.completions ?? 0;
      const after = toAdminTask(updated, completions, row?.pendingProofs ?? 0);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.edit',
        target: `task:${task.id}`,
        before: toAdminTask(task, completions, row?.pendingProofs ?? 0),
        after,
        requestId: actor.requestId,
      });
      return after;
    });
  }

  /** Soft delete: the task leaves every list; its completions and postings stay. */
  async function adminDelete(actor: Actor, id: number) {
    return db.transaction(async (tx) => {
      const task = await q.lockTask(tx, id);
      if (!task || task.deletedAt) throw new AppError('task_not_found');
      if (task.system) throw new AppError('system_task_locked');
      const [row] = await q.listTasksWithCompletions(tx, id);
      await q.updateTask(tx, id, { deletedAt: now() });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.delete',
        target: `task:${id}`,
        before: toAdminTask(task, row?.completions ?? 0),
        requestId: actor.requestId,
      });
      return null;
    });
  }

  async function adminDetail(id: number) {
    const [row] = await q.listTasksWithCompletions(db, id);
    if (!row) throw new AppError('task_not_found');
    return toAdminTask(row.task, row.completions, row.pendingProofs);
  }

  async function adminList() {
    const rows = await q.listTasksWithCompletions(db);
    const order = (s: TaskSection) => TASK_SECTIONS.indexOf(s);
    const items = rows.map((r) => toAdminTask(r.task, r.completions, r.pendingProofs));
    return { items: items.sort((a, b) => order(a.section) - order(b.section) || a.sort - b.sort || a.id - b.id) };
  }

  /**
   * Submits proof for a proof task (or new proof after a rejection). It waits for an operator; nothing
   * is paid here. The latest proof is read under a lock, and at most one open proof per user and task
   * exists (a partial unique index), so two submissions at once make one.
   */
  async function submitProof(
    userId: number,
    input: { taskId: number; imageUrl?: string | null; link?: string | null },
  ) {
    const imageUrl = input.imageUrl || null;
    const link = input.link || null;
    if (imageUrl && !(await uploads.exists(imageUrl))) {
      throw new AppError('task_proof_image_invalid', { fields: { imageUrl: 'task_proof_image_invalid' } });
    }
    return db
      .transaction(async (tx) => {
        const task = await q.findTask(tx, input.taskId);
        if (!task || task.deletedAt) throw new AppError('task_not_found');
        if (task.verification.kind !== 'proof') throw new AppError('task_not_proof');
        if (await q.hasCompletion(tx, userId, task.id)) throw new AppError('task_already_claimed');
        if (!isAvailable(task, now())) throw new AppError('task_not_active');
        const wanted = task.verification.proof;
        if (wanted === 'screenshot' && !imageUrl) {
          throw new AppError('task_proof_screenshot_required', {
            fields: { imageUrl: 'task_proof_screenshot_required' },
          });
        }
        if (wanted === 'link' && !link) {
          throw new AppError('task_proof_link_required', { fields: { link: 'task_proof_link_required' } });
        }
        const latest = await q.lockLatestProof(tx, userId, task.id);
        if (latest?.state === 'pending') throw new AppError('task_under_review');
        if (latest?.state === 'approved') throw new AppError('task_already_claimed');
        const proof = await q.insertProof(tx, { userId, taskId: task.id, imageUrl, link, createdAt: now() });
        return toProofView(proof);
      })
      .catch((error: unknown) => {
        // Another submission of the same moment took the one open place.
        if (isUniqueViolation(error)) throw new AppError('task_under_review');
        throw error;
      });
  }

  function toAdminProof(row: NonNullable<Awaited<ReturnType<typeof q.proofForAdmin>>>): AdminTaskProofItem {
    return {
      ...toProofView(row.proof),
      taskId: row.proof.taskId,
      taskTitle: row.titles.en_US ?? '',
      reward: formatRupees(row.reward),
      userId: row.proof.userId,
      username: row.username,
      reviewerId: row.proof.reviewerId,
      reviewedAt: row.proof.reviewedAt?.toISOString() ?? null,
    };
  }

  async function adminProofList(query: PageQuery & { state?: TaskProofState; taskId?: number }) {
    const afterId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listProofsForAdmin(db, query, query.limit + 1, afterId);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(toAdminProof),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last.proof.id) : null,
    };
  }

  /**
   * Approves a pending proof, crediting the task's reward through the same crediting as a claim (one
   * posting per user and task, by its idempotency key), or rejects it with a reason the user sees.
   * One transaction on the locked proof: a second decision, at once or later, finds it decided (409).
   */
  async function adminProofReview(actor: Actor, input: { id: number; action: 'approve' | 'reject'; reason: string }) {
    await db
      .transaction(async (tx) => {
        const proof = await q.lockProof(tx, input.id);
        if (!proof) throw new AppError('task_proof_not_found');
        if (proof.userId === actor.id) throw new AppError('cannot_review_own_proof');
        if (proof.state !== 'pending') throw new AppError('task_proof_state_conflict', { state: proof.state });
        const task = await q.findTask(tx, proof.taskId);
        if (!task) throw new AppError('task_not_found');
        const at = now();
        const reason = input.reason || null;
        if (input.action === 'approve') {
          const reward = await completeTask(tx, proof.userId, task);
          await notify(tx, {
            userId: proof.userId,
            kind: 'task_proof_approved',
            params: { taskId: task.id, proofId: proof.id, amount: formatRupees(reward) },
            dedupeKey: `task_proof:${proof.id}:approved`,
          });
        } else {
          await notify(tx, {
            userId: proof.userId,
            kind: 'task_proof_rejected',
            params: { taskId: task.id, proofId: proof.id, amount: formatRupees(task.reward), reason },
            dedupeKey: `task_proof:${proof.id}:rejected`,
          });
        }
        const state = input.action === 'approve' ? 'approved' : 'rejected';
        await q.updateProof(tx, proof.id, {
          state,
          reason: state === 'rejected' ? reason : null,
          reviewerId: actor.id,
          reviewedAt: at,
        });
        await writeAudit(tx, {
          actorId: actor.id,
          action: `task_proof.${input.action}`,
          target: `task_proof:${proof.id}`,
          before: { state: proof.state, taskId: proof.taskId, userId: proof.userId },
          after: { state, reason },
          requestId: actor.requestId,
        });
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('task_already_claimed');
        throw error;
      });
    const row = await q.proofForAdmin(db, input.id);
    if (!row) throw new AppError('task_proof_not_found');
    return toAdminProof(row);
  }

  return {
    list,
    finish,
    submitProof,
    adminProofList,
    adminProofReview,
    adminAdd,
    adminEdit,
    adminDelete,
    adminDetail,
    adminList,
  };
}

export type TasksService = ReturnType<typeof createTasksService>;
