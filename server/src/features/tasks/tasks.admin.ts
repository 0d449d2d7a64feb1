import {
  type AdminTask,
  type AdminTaskProofItem,
  encodeRejectReason,
  formatRupees,
  type LocaleTexts,
  type PageQuery,
  type RejectPreset,
  TASK_SECTIONS,
  type TaskProofState,
  type TaskSection,
  type TaskVerification,
} from '@kamai/contract';
import type { Db, Executor, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError, isUniqueViolation } from '../../platform/errors';
import { needsSecondApprover } from '../../platform/four-eyes';
import { notify } from '../../platform/notifications.queries';
import type { Actor } from '../../platform/routes';
import { staleRefusal } from '../../platform/stale';
import { readRiskSettings } from '../fraud';
import { reversePendingRebates } from '../referrals';
import { lockUserShared } from '../users';
import { post } from '../wallet';
import { completeTask } from './tasks.credit';
import * as q from './tasks.queries';
import { toProofView } from './tasks.service';

export interface TaskInput {
  section?: TaskSection;
  reward?: bigint;
  titles?: LocaleTexts;
  descriptions?: LocaleTexts;
  links?: LocaleTexts;
  targetCount?: number;
  startsAt?: string | null;
  endsAt?: string | null;
  sort?: number;
  active?: boolean;
  verification?: TaskVerification;
}

/** Drops empty texts so a blank locale falls back to English. */
function cleanTexts(texts: LocaleTexts | undefined): LocaleTexts | undefined {
  if (!texts) return undefined;
  return Object.fromEntries(Object.entries(texts).filter(([, text]) => Boolean(text)));
}

/** The stored verification of an operator's task; a count condition's count is its target. */
function targetOf(verification: TaskVerification): number {
  if (verification.kind === 'proof') return 1;
  const c = verification.condition;
  return 'count' in c ? c.count : 1;
}

function toAdminTask(task: q.TaskRow, completions: number, pendingProofs = 0): AdminTask {
  return {
    id: task.id,
    section: task.section,
    kind: task.kind,
    reward: formatRupees(task.reward),
    titles: task.titles,
    descriptions: task.descriptions,
    links: task.links,
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

/** The operators' side of tasks: the task list they edit and the proofs they review. */
export function createTasksAdmin({ db, now, signUrl }: { db: Db; now: () => Date; signUrl: (url: string) => string }) {
  function checkWindow(startsAt: Date | null | undefined, endsAt: Date | null | undefined) {
    if (startsAt && endsAt && endsAt <= startsAt) {
      throw new AppError('validation_failed', { fields: { endsAt: 'validation_failed' } });
    }
  }

  /**
   * A reward above the credit threshold would let one operator mint money past four-eyes: create the
   * task, have an account of their own submit a proof, approve it. Rewards stay at or below it; raising
   * the threshold is itself dual-controlled (docs/decisions/dual-control.md).
   */
  async function refuseRewardAboveCreditApproval(tx: Tx, reward: bigint | undefined) {
    if (reward === undefined) return;
    const { creditApprovalAbovePaise } = await readRiskSettings(tx);
    if (needsSecondApprover(reward, creditApprovalAbovePaise)) {
      throw new AppError('task_reward_above_credit_approval', {
        max: formatRupees(BigInt(creditApprovalAbovePaise)),
        fields: { reward: 'task_reward_above_credit_approval' },
      });
    }
  }

  async function add(
    actor: Actor,
    input: TaskInput & { section: TaskSection; reward: bigint; titles: LocaleTexts; verification: TaskVerification },
  ) {
    const startsAt = toDate(input.startsAt) ?? null;
    const endsAt = toDate(input.endsAt) ?? null;
    checkWindow(startsAt, endsAt);
    return db.transaction(async (tx) => {
      await refuseRewardAboveCreditApproval(tx, input.reward);
      const task = await q.insertTask(tx, {
        section: input.section,
        kind: 'custom',
        titles: cleanTexts(input.titles) ?? {},
        descriptions: cleanTexts(input.descriptions) ?? {},
        links: cleanTexts(input.links) ?? {},
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

  async function edit(actor: Actor, input: TaskInput & { id: number }) {
    return db.transaction(async (tx) => {
      const task = await q.lockTask(tx, input.id);
      if (!task || task.deletedAt) throw new AppError('task_not_found');
      await refuseRewardAboveCreditApproval(tx, input.reward);
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
        links: cleanTexts(input.links),
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
  async function remove(actor: Actor, id: number) {
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

  async function detail(id: number) {
    const [row] = await q.listTasksWithCompletions(db, id);
    if (!row) throw new AppError('task_not_found');
    return toAdminTask(row.task, row.completions, row.pendingProofs);
  }

  async function list() {
    const rows = await q.listTasksWithCompletions(db);
    const order = (s: TaskSection) => TASK_SECTIONS.indexOf(s);
    const items = rows.map((r) => toAdminTask(r.task, r.completions, r.pendingProofs));
    return { items: items.sort((a, b) => order(a.section) - order(b.section) || a.sort - b.sort || a.id - b.id) };
  }

  function toAdminProof(row: NonNullable<Awaited<ReturnType<typeof q.proofForAdmin>>>): AdminTaskProofItem {
    return {
      ...toProofView(row.proof, signUrl),
      taskId: row.proof.taskId,
      taskTitle: row.titles.en_US ?? '',
      reward: formatRupees(row.reward),
      userId: row.proof.userId,
      username: row.username,
      reviewerId: row.proof.reviewerId,
      reviewedAt: row.proof.reviewedAt?.toISOString() ?? null,
    };
  }

  /** The proofs queue; `from` is where it is read: a caught-up replica or the primary (tasks.routes.ts). */
  async function proofList(query: PageQuery & { state?: TaskProofState; taskId?: number }, from: Executor = db) {
    const afterId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listProofsForAdmin(from, query, query.limit + 1, afterId);
    const page = keysetPage(rows, query.limit, (row) => row.proof.id);
    return { items: page.items.map(toAdminProof), nextCursor: page.nextCursor };
  }

  /**
   * Approves a pending proof, crediting the task's reward through the same crediting as a claim (one
   * posting per user and task, by its idempotency key), or rejects it with a reason the user sees.
   * One transaction on the locked proof: a second decision, at once or later, finds it decided (409).
   */
  async function proofReview(
    actor: Actor,
    input: { id: number; action: 'approve' | 'reject'; reason: string; preset?: RejectPreset },
  ) {
    await db
      .transaction(async (tx) => {
        const proof = await q.lockProof(tx, input.id);
        if (!proof) throw new AppError('task_proof_not_found');
        if (proof.userId === actor.id) throw new AppError('cannot_review_own_proof');
        // A deleted account is credited nothing, whatever the proof (its pending ones were rejected at
        // the deletion); the share lock orders this after, or before, a deletion in flight.
        if (input.action === 'approve' && (await lockUserShared(tx, proof.userId))?.deletedAt) {
          throw new AppError('account_deleted_final');
        }
        // Decided meanwhile (another reviewer): say by whom and when.
        if (proof.state !== 'pending') {
          throw await staleRefusal(tx, 'task_proof_state_conflict', {
            state: proof.state,
            byId: proof.reviewerId,
            at: proof.reviewedAt,
          });
        }
        const task = await q.findTask(tx, proof.taskId);
        if (!task) throw new AppError('task_not_found');
        const at = now();
        // A preset is stored with its code, so every reader sees it in their own language.
        const reason = input.action === 'reject' ? encodeRejectReason(input.preset, input.reason) || null : null;
        if (input.action === 'approve') {
          const { reward } = await completeTask(tx, proof.userId, task, at);
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

  /**
   * Takes a task reward back (found wrong after it was paid: a proof approved in error, a fraud): the
   * amount leaves the user's wallet (refused with insufficient_balance when it was spent) and the
   * rebates it owes that are still pending are reversed, both levels, in one transaction with the
   * audit row. The completion stays, so the task is not paid again. A second reversal is refused.
   */
  async function rewardReverse(actor: Actor, input: { postingId: number; reason: string }) {
    return db.transaction(async (tx) => {
      const reward = await q.lockRewardPosting(tx, input.postingId);
      if (!reward) throw new AppError('task_reward_not_found');
      const reversal = await post(tx, {
        type: 'task_reward_reversal',
        idempotencyKey: `task_reward:${reward.postingId}:reversal`,
        ref: { taskId: reward.taskId, sourcePostingId: reward.postingId },
        entries: [
          { account: { userId: reward.userId, kind: 'wallet' }, amount: -reward.amount },
          { account: { kind: 'platform_rewards' }, amount: reward.amount },
        ],
      });
      if (!reversal.created) throw new AppError('task_reward_reversed_already');
      const rebatesReversed = await reversePendingRebates(
        tx,
        { sourcePostingId: reward.postingId },
        'source_reversed',
        now(),
      );
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task_reward.reverse',
        target: `user:${reward.userId}`,
        before: { postingId: reward.postingId, taskId: reward.taskId, amount: formatRupees(reward.amount) },
        after: { reversalPostingId: reversal.postingId, reason: input.reason, rebatesReversed },
        requestId: actor.requestId,
      });
      return { postingId: reversal.postingId, rebatesReversed };
    });
  }

  return { add, edit, remove, detail, list, proofList, proofReview, rewardReverse };
}

export type TasksAdmin = ReturnType<typeof createTasksAdmin>;
