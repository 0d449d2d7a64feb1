import type { TaskConditionType, TaskItem, TaskKind } from '@kamai/contract';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type AppPath, paths } from '../../../config/paths';
import { messageOf } from '../../../lib/api';
import { showForm } from '../../../lib/form-dialog';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useFinishTask } from '../api/finish-task';

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
  const finish = useFinishTask();

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
    const claim = () =>
      finish.mutate(task.id, {
        onSuccess: ({ message }) => toastSuccess(message),
        onError: (error) => toastError(messageOf(error)),
      });
    return (
      <Button
        size="small"
        shape="rounded"
        color="primary"
        className="task-action"
        loading={finish.isPending}
        onClick={claim}
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
