import type { InviteItem } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';

/** One invitee: masked name, when they joined, and the rebate they have earned the caller (available, and pending apart). */
export function InviteRow({ item }: { item: InviteItem }) {
  const { t } = useTranslation('referrals');
  const locale = currentLocale();
  return (
    <article className="record-row flex space-between">
      <div className="stack record-row-main">
        <p className="record-row-title semibold text-15">{item.username}</p>
        <time className="record-row-time muted text-12" dateTime={item.joinedAt}>
          {t('joinedAt', { time: formatDateTime(item.joinedAt, locale) })}
        </time>
      </div>
      <div className="stack record-row-side flex-none">
        <p className="amount primary">{formatMoney(item.rebateEarned, locale)}</p>
        <p className="record-row-after muted text-12">{t('rebateEarned')}</p>
        {Number(item.rebatePending) > 0 && (
          <p className="record-row-after muted text-12">
            {t('rebatePending', { amount: formatMoney(item.rebatePending, locale) })}
          </p>
        )}
      </div>
    </article>
  );
}
