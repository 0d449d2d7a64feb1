import { lazy, Suspense } from 'react';
// By path, not through the feature's index: the index also exports the task list, which brings the
// API client and React Query, and this module is part of the first page a visitor loads.
import { HomeSkeleton, HomeWelcome } from '../../features/tasks/components/home-welcome';
import { useIsLoggedIn } from '../../lib/api';

/** The API client, React Query and the task cards load only for a logged-in user, after the first paint. */
const HomeContent = lazy(() => import('./home-content'));

/** The Home tab: a welcome for visitors; balance and tasks for a logged-in user. */
export default function HomeTab() {
  const loggedIn = useIsLoggedIn();
  if (!loggedIn) return <HomeWelcome />;
  return (
    <Suspense fallback={<HomeSkeleton />}>
      <HomeContent />
    </Suspense>
  );
}
