import { formatRupees, PUSH_PATHS, SYSTEM_TASK_IDS } from '@kamai/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { creditWithRebates, findRebatePlan, type RebatePlan } from '../referrals';
import { isReturningIdentity } from '../users';
import { CREDIT, payCompletion } from './tasks.claim.queries';
import * as q from './tasks.queries';

const SYSTEM_TASKS = new Set<number>(Object.values(SYSTEM_TASK_IDS));

export const taskPostingKey = (taskId: number, userId: number) => `task:${taskId}:user:${userId}`;

/** Active, not deleted, and inside its time window at `now`. */
export function isAvailable(task: q.TaskRow, now: Date): boolean {
  if (!task.active || task.deletedAt) return false;
  if (task.startsAt && task.startsAt > now) return false;
  if (task.endsAt && task.endsAt <= now) return false;
  return true;
}

/**
 * Pays a task's reward to the user once, with the rebates it owes the uplines (pending for the hold),
 * in the caller's transaction, and answers it with the user's wallet balance after. The caller has
 * checked the task's condition. Staff earn nothing: a staff account is refused (`staff_earn_nothing`).
 * A second claim, concurrent or later, finds the completion, the posting's idempotency key or the
 * completion's primary key taken: `task_already_claimed`. `known`: what the caller read in this
 * transaction already (that the user had no completion; the rebate plan), so it is not read again.
 */
export async function completeTask(
  tx: Tx,
  userId: number,
  task: q.TaskRow,
  now: Date,
  known: { unclaimed?: boolean; plan?: RebatePlan } = {},
): Promise<{ reward: bigint; balance: bigint }> {
  const plan = known.plan ?? (await findRebatePlan(tx, userId));
  if (plan.staff) throw new AppError('staff_earn_nothing');
  if (!known.unclaimed && (await q.hasCompletion(tx, userId, task.id))) throw new AppError('task_already_claimed');
  // The system tasks are first-time rewards: a phone or e-mail registered before earned them once.
  if (SYSTEM_TASKS.has(task.id) && (await isReturningIdentity(tx, userId))) throw new AppError('task_already_claimed');
  const key = taskPostingKey(task.id, userId);
  const credit = creditWithRebates(
    CREDIT,
    { userId, amount: task.reward, idempotencyKey: key, ref: { taskId: task.id, taskTitle: task.titles.en_US ?? '' } },
    now,
    plan,
  );
  const push =
    task.reward > 0n
      ? {
          users: userId,
          cause: key,
          content: {
            source: 'notification' as const,
            kind: 'reward_credited',
            params: { amount: formatRupees(task.reward), taskId: task.id },
            url: PUSH_PATHS.income,
            tag: key,
          },
        }
      : undefined;
  const paid = await payCompletion(tx, { userId, taskId: task.id }, credit, push);
  // A replayed key wrote nothing; a completion already there rolls the reward back with the transaction.
  if (!paid.credited || !paid.completed) throw new AppError('task_already_claimed');
  return { reward: task.reward, balance: paid.balance };
}

/**
 * For tasks the server finishes itself (2 at registration, 3 with the survey): pays the reward when
 * the task is available and unpaid; returns what was paid (0 when nothing was).
 */
export async function completeSystemTask(tx: Tx, userId: number, taskId: number, now: Date): Promise<bigint> {
  const task = await q.findTask(tx, taskId);
  if (!task || !isAvailable(task, now) || (await q.hasCompletion(tx, userId, taskId))) return 0n;
  // First-time rewards are paid to a phone or e-mail once, ever (docs/decisions/canonical-identity.md).
  if (await isReturningIdentity(tx, userId)) return 0n;
  const plan = await findRebatePlan(tx, userId);
  if (plan.staff) return 0n;
  return (await completeTask(tx, userId, task, now, { unclaimed: true, plan })).reward;
}
