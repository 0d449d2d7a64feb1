import type { WithdrawalTimelineItem } from '@kamai/contract';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';
import '../withdrawals.css';

/** Steps where the withdrawal ended off the road: red (rejected, returned) or grey (cancelled), withdrawals.css. */
const END_CLASS: Partial<Record<WithdrawalTimelineItem['step'], string>> = {
  returned: ' step-stopped',
  rejected: ' step-stopped',
  cancelled: ' step-cancelled',
};

/** Steps to come are muted. */
const STATUS_CLASS: Record<string, string> = { todo: ' muted' };

/**
 * A withdrawal's timeline as the server gives it (`withdrawalTimeline`): requested → under review →
 * approved → sent to the bank → paid with the bank reference (UTR), or ended rejected, cancelled or
 * returned with the reason; each step reached shows its time, the one it is at is marked, the ones to
 * come are muted.
 */
export function WithdrawalTimeline({ steps }: { steps: WithdrawalTimelineItem[] }) {
  const { t } = useTranslation('withdrawals');
  const locale = currentLocale();
  return (
    <ol className="plain-list withdraw-timeline" aria-label={t('timeline.label')}>
      {steps.map((item) => (
        <li
          key={item.step}
          className={`withdraw-timeline-step step-${item.status}${STATUS_CLASS[item.status] ?? ''}${END_CLASS[item.step] ?? ''}`}
          aria-current={item.status === 'current' ? 'step' : undefined}
        >
          <span className="step-dot withdraw-timeline-dot flex-none" aria-hidden />
          <span className="stack withdraw-timeline-text">
            <span className={`text-13${item.status === 'current' ? ' semibold' : ''}`}>
              {t(`timeline.${item.step}`)}
            </span>
            {item.at && (
              <time className="muted text-12" dateTime={item.at}>
                {formatDateTime(item.at, locale)}
              </time>
            )}
            {item.step === 'paid' && item.status !== 'todo' && (
              <span className="wrap-anywhere text-12">
                {item.detail ? t('list.reference', { reference: item.detail }) : t('timeline.utrToFollow')}
              </span>
            )}
            {(item.step === 'returned' || item.step === 'rejected') && item.detail && (
              <span className="withdrawal-reason wrap-anywhere text-12">
                {t('list.reason', { reason: item.detail })}
              </span>
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}
