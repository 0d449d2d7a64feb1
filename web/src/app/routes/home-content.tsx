import { PullRefresh } from '../../components/pull-refresh';
import { TaskSections } from '../../features/tasks';
// By path: the feature's index also exports the profile page (its icons and validation rules).
import { BalanceCard } from '../../features/users/components/balance-card';
import { QueryProvider, queryClient } from '../../lib/query-client';

/** A logged-in user's Home: the users feature's balance above the tasks feature's sections. */
export default function HomeContent() {
  return (
    <QueryProvider>
      <PullRefresh onRefresh={() => queryClient.refetchQueries({ type: 'active' })}>
        <div className="home-page">
          <BalanceCard />
          <TaskSections />
        </div>
      </PullRefresh>
    </QueryProvider>
  );
}
