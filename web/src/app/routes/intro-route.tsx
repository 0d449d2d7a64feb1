import { SYSTEM_TASK_IDS } from '@kamai/contract/constants';
import { IntroPage } from '../../features/intro';
import { useClaimIfClaimable } from '../../features/tasks';
import { QueryProvider } from '../../lib/query-client';

/** The introduction, which once viewed lets the tasks feature claim the introduction task. */
function Intro() {
  const claim = useClaimIfClaimable();
  return <IntroPage onViewed={() => claim(SYSTEM_TASK_IDS.intro)} />;
}

export default function IntroRoute() {
  return (
    <QueryProvider>
      <Intro />
    </QueryProvider>
  );
}
