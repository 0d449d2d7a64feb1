import type { TaskItem } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { TaskAction } from './task-action';
import { TaskEnds } from './task-ends';

function Progress({ task }: { task: TaskItem }) {
  const { t } = useTranslation('tasks');
  const done = Math.min(task.progress, task.targetCount);
  const text =
    task.kind === 'invite'
      ? t('progress.friends', { done, target: task.targetCount })
      : t('progress.steps', { done, target: task.targetCount });
  const style = { '--progress': `${(done / Math.max(task.targetCount, 1)) * 100}%` } as CSSProperties;
  return (
    <div className="stack task-progress">
      <span className="task-progress-text text-12">{text}</span>
      <span className="task-progress-bar" style={style} aria-hidden />
    </div>
  );
}

function StateTag({ task }: { task: TaskItem }) {
  const { t } = useTranslation('tasks');
  return <span className={`task-state radius-10 task-state-${task.state}`}>{t(`states.${task.state}`)}</span>;
}

/** One task: what to do, what it pays, how far along it is, and the action that fits its state. */
export function TaskCard({ task }: { task: TaskItem }) {
  const { t } = useTranslation('tasks');
  const locale = currentLocale();
  const showProgress = task.kind === 'invite' || task.targetCount > 1;
  return (
    <article className={`task-card row task-card-${task.state}`} aria-label={task.title}>
      <div className="task-card-body">
        <div className="task-card-head row flex-wrap">
          <h3 className="task-card-title semibold text-15">{task.title}</h3>
          <StateTag task={task} />
        </div>
        {task.description && <p className="task-card-description muted text-13">{task.description}</p>}
        {task.link && (
          <a
            className="task-card-link semibold wrap-anywhere text-13"
            href={task.link}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('openLink')}
          </a>
        )}
        {showProgress && <Progress task={task} />}
        {task.state !== 'completed' && task.proof?.state === 'rejected' && (
          <p className="task-card-rejected wrap-anywhere">{t('proof.rejected', { reason: task.proof.reason ?? '' })}</p>
        )}
        {task.endsAt && <TaskEnds endsAt={task.endsAt} />}
      </div>
      <div className="stack task-card-side flex-none">
        <span className="task-reward tabular bold">
          <span className="visually-hidden">{t('reward')} </span>+{formatMoney(task.reward, locale)}
        </span>
        <TaskAction task={task} />
      </div>
    </article>
  );
}

/** The Recommend Friends cards: reward, friends so far and the state, two to a row. */
export function FriendTaskCard({ task }: { task: TaskItem }) {
  const { t } = useTranslation('tasks');
  const locale = currentLocale();
  return (
    <article className={`friend-card flex task-card-${task.state}`} aria-label={task.title}>
      <h3 className="friend-card-title semibold text-14">{task.title}</h3>
      <span className="task-reward tabular bold">+{formatMoney(task.reward, locale)}</span>
      <p className="friend-card-count text-12">
        {t('progress.friends', { done: Math.min(task.progress, task.targetCount), target: task.targetCount })}
      </p>
      <StateTag task={task} />
      <TaskAction task={task} />
    </article>
  );
}
