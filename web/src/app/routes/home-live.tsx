import { PullRefresh } from '../../components/pull-refresh';
import { TaskSections } from '../../features/tasks';
// By path: the feature's index also exports the profile page (its icons and validation rules).
import { BalanceCard } from '../../features/users/components/balance-card';
import { QueryProvider, queryClient } from '../../lib/query-client';

/** A logged-in user's Home on the query cache, once TanStack Query has loaded (home-content.tsx). */
export default function HomeLive() {
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
