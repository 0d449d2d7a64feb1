import { WITHDRAWAL_STATE_LABELS, type WithdrawalState } from '@kamai/contract';
import { useTranslation } from 'react-i18next';
import '../../../i18n/errors';
import '../withdrawals.css';

/** The road of a withdrawal that goes well; each step is named by its state's label. */
const ROAD = ['pending', 'approved', 'processing', 'paid'] as const;

/** Where a withdrawal that left the road left it: the last step it reached. */
const STOPPED_AFTER: Partial<Record<WithdrawalState, number>> = { rejected: 0, cancelled: 0, failed: 2, reversed: 3 };

/** Steps to come are muted, the one the withdrawal is at is semibold (a stopped one is red, withdrawals.css). */
const STEP_CLASS: Record<string, string> = { todo: ' muted', current: ' semibold' };

/**
 * A withdrawal's state as steps (Under review → Approved → Processing → Payment successful): the steps
 * done, the one it is at, the ones to come; a withdrawal that was refused, cancelled, failed or
 * returned ends in that state instead.
 */
export function WithdrawalTracker({ state }: { state: WithdrawalState }) {
  const { t } = useTranslation(['withdrawals', 'errors']);
  const stopped = STOPPED_AFTER[state];
  const at = stopped ?? ROAD.indexOf(state as (typeof ROAD)[number]);
  const steps = (stopped === undefined ? ROAD : ROAD.slice(0, stopped + 1)).map((step, index) => ({
    key: step,
    status:
      index < at || (index === at && state === 'paid') || stopped !== undefined
        ? 'done'
        : index === at
          ? 'current'
          : 'todo',
  }));
  if (stopped !== undefined) steps.push({ key: state as never, status: 'stopped' });
  return (
    <ol className="plain-list withdraw-tracker" aria-label={t('withdrawals:tracker.label')}>
      {steps.map((step) => (
        <li
          key={step.key}
          className={`withdraw-tracker-step row step-${step.status}${STEP_CLASS[step.status] ?? ''}`}
          aria-current={step.status === 'current' ? 'step' : undefined}
        >
          <span className="step-dot withdraw-tracker-dot flex-none" aria-hidden />
          <span className="text-13">{t(`errors:${WITHDRAWAL_STATE_LABELS[step.key]}`)}</span>
        </li>
      ))}
    </ol>
  );
}
