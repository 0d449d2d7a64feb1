import { PullRefresh } from '../../components/pull-refresh';
import { TaskSections } from '../../features/tasks';
import { taskListQueryOptions } from '../../features/tasks/api/get-tasks';
import { userDetailQueryOptions } from '../../features/users/api/get-user-detail';
// By path: the feature's index also exports the profile page (its icons and validation rules).
import { BalanceCard } from '../../features/users/components/balance-card';
import { currentLocale, i18nReady } from '../../i18n';
import { QueryProvider, queryClient } from '../../lib/query-client';

// Home's two reads start when this chunk runs (main.tsx preloads it at boot for a logged-in user),
// not after React has rendered it: Home's content waits on them, and the components' useQuery joins
// the request in flight (same keys). The task list is in the user's language, so it waits for i18n.
void i18nReady().then(() =>
  Promise.all([
    queryClient.prefetchQuery(userDetailQueryOptions()),
    queryClient.prefetchQuery(taskListQueryOptions(currentLocale())),
  ]),
);

/** A logged-in user's Home: the users feature's balance above the tasks feature's sections. */
export default function HomeContent() {
  return (
    <QueryProvider>
      <PullRefresh onRefresh={() => queryClient.refetchQueries({ type: 'active' })}>
        <div className="stack home-page">
          <BalanceCard />
          <TaskSections />
        </div>
      </PullRefresh>
    </QueryProvider>
  );
}
