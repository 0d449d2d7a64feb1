import {
  formatRupees,
  type Locale,
  parseRupees,
  rejectReasonText,
  type StoredTaskCondition,
  TASK_SECTIONS,
  type TaskItem,
  type TaskProofView,
  type TaskSection,
  type TaskState,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { AppError, isUniqueViolation } from '../../platform/errors';
import { listTasksBySession } from './task-list.hot.queries';
import { findClaim } from './tasks.claim.queries';
import { completeTask, isAvailable } from './tasks.credit';
import * as q from './tasks.queries';

type Facts = q.BaseFacts & { extra?: q.ConditionFacts };

/** What the rules of a task read of it. */
type Verified = Pick<q.TaskRow, 'verification'>;

/** The condition of an automatic task, or undefined for a proof task. */
function conditionOf(task: Verified): StoredTaskCondition | undefined {
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
      return condition.count > 1;
    default:
      return false;
  }
}

async function withExtraFacts(db: Executor, userId: number, now: Date, base: q.BaseFacts, list: Verified[]) {
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
      const made =
        condition.count > 1
          ? ((condition.paid ? extra?.paidWithdrawals : extra?.withdrawals) ?? 0)
          : Number(condition.paid ? facts.paidWithdrawal : facts.withdrawal);
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
function conditionMet(task: Verified, facts: Facts): boolean {
  const condition = conditionOf(task);
  if (!condition) return false;
  const { progress, target } = measure(condition, facts);
  return progress >= target;
}

/** A task whose condition is the introduction is hidden while there is no video. */
function hidden(task: Verified, facts: Facts): boolean {
  return conditionOf(task)?.type === 'intro' && !facts.introVideo;
}

/** What tasks ask of the uploads feature (a proof is the submitter's own, shown signed). */
export interface ProofFiles {
  /** The bare URL of the user's own proof upload named by `url`, else undefined. */
  ownProof(userId: number, url: string): Promise<string | undefined>;
  signUrl(url: string): string;
}

/**
 * A proof as its owner and staff see it: the screenshot by a signed URL; with `locale` (the user's view)
 * a preset reason in their language, without it (console) the stored reason.
 */
export function toProofView(
  proof: Omit<q.ProofShown, 'createdAt'> & { createdAt: Date | string },
  signUrl: (url: string) => string,
  locale?: Locale,
): TaskProofView {
  const { createdAt } = proof;
  return {
    id: proof.id,
    state: proof.state,
    imageUrl: proof.imageUrl === null ? null : signUrl(proof.imageUrl),
    link: proof.link,
    reason: locale ? rejectReasonText(proof.reason, locale) : proof.reason,
    // task/list reads it already written as the answer writes it (task-list.hot.queries.ts).
    createdAt: typeof createdAt === 'string' ? createdAt : createdAt.toISOString(),
  };
}

export function createTasksService({
  db,
  now,
  uploads,
}: {
  db: Db;
  now: () => Date;
  /** The user's own proof uploads (a proof's screenshot must be one) and their signed URLs. */
  uploads: ProofFiles;
}) {
  /**
   * The caller's available tasks in Home's section order, with progress and state; the caller is
   * found by its session's token hash (one query checks both). Undefined when the session is not
   * live (a session read: its route answers `unauthorized`).
   */
  async function list(sessionHash: string, locale: Locale) {
    const at = now();
    const found = await listTasksBySession(db, sessionHash, at, locale);
    if (!found) return undefined;
    let facts: Facts = found.facts;
    // Facts beyond the query's own only when an open task's condition asks for them (a second query).
    const open = found.tasks.filter((task) => !task.done && needsExtraFacts(conditionOf(task)) && !hidden(task, facts));
    if (open.length) facts = await withExtraFacts(db, found.userId, at, found.facts, open);
    const groups = new Map<TaskSection, TaskItem[]>(TASK_SECTIONS.map((section) => [section, []]));
    for (const task of found.tasks) {
      if (hidden(task, facts)) continue;
      const condition = conditionOf(task);
      const measured = condition ? measure(condition, facts) : { progress: 0, target: 1 };
      const state: TaskState = task.done
        ? 'completed'
        : task.proof?.state === 'pending'
          ? 'review'
          : condition && measured.progress >= measured.target
            ? 'claimable'
            : 'incomplete';
      groups.get(task.section)?.push({
        id: task.id,
        section: task.section,
        kind: task.kind,
        title: task.title,
        description: task.description,
        link: task.link,
        reward: formatRupees(task.reward),
        targetCount: measured.target,
        progress: task.done ? measured.target : measured.progress,
        state,
        startsAt: task.startsAt,
        endsAt: task.endsAt,
        verification: task.verification,
        proof: task.proof ? toProofView(task.proof, uploads.signUrl, locale) : null,
      });
    }
    return { sections: TASK_SECTIONS.map((section) => ({ section, items: groups.get(section) ?? [] })) };
  }

  /**
   * Claims a task's reward once, when the server's records satisfy its automatic condition. A proof
   * task is never claimed: its reward comes with the operator's approval.
   */
  async function finish(userId: number, taskId: number) {
    return db
      .transaction(async (tx) => {
        const at = now();
        const claim = await findClaim(tx, userId, taskId, at);
        if (!claim || claim.task.deletedAt) throw new AppError('task_not_found');
        const { task, facts } = claim;
        if (claim.done) throw new AppError('task_already_claimed');
        if (!isAvailable(task, at)) throw new AppError('task_not_active');
        if (task.verification.kind === 'proof') {
          throw new AppError(claim.proofState === 'pending' ? 'task_under_review' : 'task_proof_required');
        }
        if (hidden(task, facts)) throw new AppError('task_not_active');
        if (!conditionMet(task, facts)) throw new AppError('task_condition_unmet');
        const { reward, balance } = await completeTask(tx, userId, task, at, { unclaimed: true, plan: claim.plan });
        return { taskId, reward: formatRupees(reward), balance: formatRupees(balance) };
      })
      .catch((error: unknown) => {
        // A concurrent claim that got past the checks meets the completion's primary key.
        if (isUniqueViolation(error)) throw new AppError('task_already_claimed');
        throw error;
      });
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
    // Only a screenshot the user uploaded for proofs: not another user's, not an operator's image.
    const imageUrl = input.imageUrl ? ((await uploads.ownProof(userId, input.imageUrl)) ?? '') : null;
    const link = input.link || null;
    if (imageUrl === '') {
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
        return toProofView(proof, uploads.signUrl);
      })
      .catch((error: unknown) => {
        // Another submission of the same moment took the one open place.
        if (isUniqueViolation(error)) throw new AppError('task_under_review');
        throw error;
      });
  }

  return { list, finish, submitProof };
}

export type TasksService = ReturnType<typeof createTasksService>;
