import type { TaskItem, TaskSection } from '@kamai/contract';
import { TASK_SECTIONS } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { SkeletonRows } from '../../../components/skeleton-rows';
import type { getTasks } from '../api/task-list-query';
import { FriendTaskCard, TaskCard } from './task-card';
import '../tasks.css';

function Section({ section, items }: { section: TaskSection; items: TaskItem[] }) {
  const { t } = useTranslation('tasks');
  return (
    <section className="card task-section" aria-labelledby={`section-${section}`}>
      <h2 id={`section-${section}`} className="task-section-title row semibold">
        {t(`sections.${section}`)}
      </h2>
      {items.length === 0 ? (
        <p className="task-section-empty radius-10 muted">{t(`sectionEmpty.${section}`)}</p>
      ) : section === 'friends' ? (
        <div className="friend-grid">
          {items.map((task) => (
            <FriendTaskCard key={task.id} task={task} />
          ))}
        </div>
      ) : (
        <div className="task-list flex divided">
          {items.map((task) => (
            <TaskCard key={task.id} task={task} />
          ))}
        </div>
      )}
    </section>
  );
}

/** Sections the spec lists as Home's own: they stay, with an empty state, when no task is in them. */
const ALWAYS_SHOWN: readonly TaskSection[] = ['hot', 'latest', 'limited'];

/** A read as the sections show it: TanStack Query's result, or Home's first read before the library loads. */
export interface TaskListRead {
  data: Awaited<ReturnType<typeof getTasks>> | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * Home's task sections in the spec's order, drawn from a read it is given (task-sections.tsx gives
 * TanStack Query's). Hot, Latest and Limited-time stay with an empty state; the newbie and friends
 * sections are left out when they have nothing for this user.
 */
export function TaskSectionsView({ tasks }: { tasks: TaskListRead }) {
  const { t } = useTranslation(['tasks', 'common']);
  if (tasks.isPending) return <SectionsSkeleton />;
  if (tasks.isError) {
    return (
      <section className="stack card task-section list-status muted text-center">
        <p>{t('tasks:loadFailed')}</p>
        <Button size="small" shape="rounded" onClick={() => void tasks.refetch()}>
          {t('common:request.retry')}
        </Button>
      </section>
    );
  }
  if (!tasks.data) return <SectionsSkeleton />;
  const bySection = new Map(tasks.data.sections.map((entry) => [entry.section, entry.items]));
  const shown = TASK_SECTIONS.map((section) => ({ section, items: bySection.get(section) ?? [] })).filter(
    (entry) => entry.items.length > 0 || ALWAYS_SHOWN.includes(entry.section),
  );
  return shown.map((entry) => <Section key={entry.section} section={entry.section} items={entry.items} />);
}

export function SectionsSkeleton() {
  const { t } = useTranslation();
  return (
    <section className="card task-section">
      <SkeletonRows rows={4} label={t('dialog.loading')} />
    </section>
  );
}
