import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { PullRefresh } from '../../components/pull-refresh';
import { getTasks, taskListQueryOptions } from '../../features/tasks/api/task-list-query';
import { type TaskListRead, TaskSectionsView } from '../../features/tasks/components/task-sections-view';
import { getUserDetail, userDetailQueryOptions } from '../../features/users/api/user-detail-query';
// By path: the feature's index also exports the profile page (its icons and validation rules).
import { BalanceCardView, type UserRead } from '../../features/users/components/balance-card-view';
import { currentLocale, i18nReady } from '../../i18n';
import { invalidateQueries, loadQueryClient, seedQueryClient, useQueryClientLoaded } from '../../lib/query-later';

// Home's first paint needs two reads and no TanStack Query (~13 KB gzip). The reads start when this chunk
// runs (main.tsx preloads it at boot for a logged-in user), with the same request functions and cache
// keys the query hooks use, and are handed to the query cache when it loads (`seedQueryClient`; at once
// if it has): one request each either way. The library loads with the first page, form or action that
// needs it, and Home then switches to the same components on the cache (home-live.tsx). The task list
// is in the user's language, so it waits for i18n.

const loadHomeLive = () => import('./home-live');
const HomeLive = lazy(loadHomeLive);

type Read<T> = { data: T | undefined; isPending: boolean; isError: boolean; at?: number };
interface FirstReads {
  user: Read<Awaited<ReturnType<typeof getUserDetail>>>;
  tasks: Read<Awaited<ReturnType<typeof getTasks>>>;
  locale?: string;
}

const pending = { data: undefined, isPending: true, isError: false };
let reads: FirstReads = { user: pending, tasks: pending };
const listeners = new Set<() => void>();

function settle<K extends 'user' | 'tasks'>(key: K, request: Promise<NonNullable<FirstReads[K]['data']>>): void {
  request.then(
    (data) => update({ [key]: { data, isPending: false, isError: false, at: Date.now() } }),
    () => update({ [key]: { data: undefined, isPending: false, isError: true } }),
  );
}

function update(change: Partial<FirstReads>): void {
  reads = { ...reads, ...change };
  for (const listener of listeners) listener();
}

void i18nReady().then(() => {
  const locale = currentLocale();
  const user = getUserDetail();
  const tasks = getTasks();
  update({ locale });
  settle('user', user);
  settle('tasks', tasks);
  seedQueryClient((client) => {
    // A read that has landed is set synchronously, so an invalidation right after the load (a claim's)
    // covers it; one still in flight is joined; a failed one is left to the component's mount to retry.
    const hand = <T,>(read: Read<T>, options: { queryKey: readonly unknown[] }, request: Promise<T>) => {
      if (read.data !== undefined) client.setQueryData(options.queryKey, read.data, { updatedAt: read.at });
      else if (read.isPending) void client.prefetchQuery({ ...options, queryFn: () => request, retry: false });
    };
    hand(reads.user, userDetailQueryOptions(), user);
    hand(reads.tasks, taskListQueryOptions(locale), tasks);
  });
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Anything beyond showing the first reads (retry, pull to refresh, another language) loads the cache. */
const goLive = () => void loadQueryClient();

/** Home's balance and tasks from the first reads, before TanStack Query has loaded. */
function HomeFirstPaint() {
  const first = useSyncExternalStore(subscribe, () => reads);
  const { i18n } = useTranslation();
  // The task list is in the language it was asked in; another one is the cache's work.
  useEffect(() => {
    if (first.locale && i18n.language !== first.locale) goLive();
  }, [i18n.language, first.locale]);
  const user: UserRead = { ...first.user, refetch: goLive };
  const tasks: TaskListRead = { ...first.tasks, refetch: goLive };
  return (
    <PullRefresh onRefresh={() => invalidateQueries()}>
      <div className="stack home-page">
        <BalanceCardView user={user} />
        <TaskSectionsView tasks={tasks} />
      </div>
    </PullRefresh>
  );
}

/** A logged-in user's Home: the users feature's balance above the tasks feature's sections. */
export default function HomeContent() {
  const live = useQueryClientLoaded();
  if (!live) return <HomeFirstPaint />;
  return (
    <Suspense fallback={<HomeFirstPaint />}>
      <HomeLive />
    </Suspense>
  );
}
