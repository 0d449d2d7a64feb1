import type { TaskConditionType, TaskItem, TaskKind } from '@kamai/contract';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppPath, paths } from '../../../config/paths';
import { messageOf } from '../../../lib/api';
import { showForm } from '../../../lib/form-dialog';
import { invalidateQueries } from '../../../lib/query-later';
import { useNavigate } from '../../../lib/router';
import { finishTask } from '../api/finish-task-request';

/** The toast helpers load with the first claim: Home's first paint does not need them (0.7 KB gzip). */
const toasts = () => import('../../../lib/toast');

/** Where an unfinished task of each kind can be done; registering is done by the time Home shows. */
const GO_TO: Partial<Record<TaskKind, AppPath | (() => void)>> = {
  survey: paths.survey,
  intro: paths.intro,
  invite: paths.invites,
  withdrawal: () => showForm('withdraw'),
};

/** The same for an operator's task with a condition ("link 1 more account"); income has no one place. */
const GO_TO_CONDITION: Partial<Record<TaskConditionType, AppPath | (() => void)>> = {
  linked_accounts: paths.add,
  invites: paths.invites,
  withdrawals: () => showForm('withdraw'),
  survey: paths.survey,
  intro: paths.intro,
};

/**
 * Claim when the server says the task is done, Go to where it can be done, Submit proof for a proof task
 * (Under review while an operator decides), or a disabled Completed.
 */
export function TaskAction({ task }: { task: TaskItem }) {
  const { t } = useTranslation('tasks');
  const navigate = useNavigate();
  const [claiming, setClaiming] = useState(false);

  if (task.state === 'completed') {
    return (
      <Button size="small" shape="rounded" disabled className="task-action">
        {t('actions.completed')}
      </Button>
    );
  }
  if (task.state === 'review') {
    return (
      <Button size="small" shape="rounded" disabled className="task-action">
        {t('actions.review')}
      </Button>
    );
  }
  if (task.verification.kind === 'proof') {
    const again = task.proof?.state === 'rejected';
    return (
      <Button
        size="small"
        shape="rounded"
        color="primary"
        fill="outline"
        className="task-action"
        onClick={() => showForm('taskProof', { taskId: String(task.id), proof: task.verification.proof ?? 'either' })}
      >
        {again ? t('actions.resubmit') : t('actions.submitProof')}
      </Button>
    );
  }
  if (task.state === 'claimable') {
    // Not a mutation hook: Home's first paint has no TanStack Query (lib/query-later.ts). A reward moves
    // the balance, the income records and task states, so every query is invalidated, as useFinishTask does.
    const claim = async () => {
      setClaiming(true);
      try {
        const { message } = await finishTask(task.id);
        void toasts().then((toast) => toast.toastSuccess(message));
        await invalidateQueries();
      } catch (error) {
        void toasts().then((toast) => toast.toastError(messageOf(error)));
      } finally {
        setClaiming(false);
      }
    };
    return (
      <Button
        size="small"
        shape="rounded"
        color="primary"
        className="task-action"
        loading={claiming}
        onClick={() => void claim()}
      >
        {t('actions.claim')}
      </Button>
    );
  }
  const condition = task.verification.condition?.type;
  const target = GO_TO[task.kind] ?? (condition && condition !== 'register' ? GO_TO_CONDITION[condition] : undefined);
  if (!target) return null;
  return (
    <Button
      size="small"
      shape="rounded"
      color="primary"
      fill="outline"
      className="task-action"
      onClick={() => (typeof target === 'function' ? target() : navigate(target))}
    >
      {t('actions.go')}
    </Button>
  );
}
