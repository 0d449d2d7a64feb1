import { SYSTEM_TASK_IDS } from '@kamai/contract/constants';
import { IntroPage } from '../../features/intro';
import { useClaimIfClaimable } from '../../features/tasks';

/** The introduction, which once viewed lets the tasks feature claim the introduction task. */
export default function Intro() {
  const claim = useClaimIfClaimable();
  return <IntroPage onViewed={() => claim(SYSTEM_TASK_IDS.intro)} />;
}
