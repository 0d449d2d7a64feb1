import type { BalanceItem } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';
import { RaiseComplaintLink } from '../../complaints';

/** What caused a movement, in words: the task, the invitee and rebate level, the withdrawal or account. */
function useCause(item: BalanceItem): string | null {
  const { t } = useTranslation('wallet');
  const { ref } = item;
  if (ref.remark) return t('cause.remark', { remark: ref.remark });
  // A manual credit without a text for the user: a generic label, never the operator's internal note.
  if (item.type === 'manual_credit' && ref.inviteeId === undefined) return t('cause.manualCredit');
  if (ref.taskTitle) return ref.taskTitle;
  if (ref.taskId !== undefined) return t('cause.task', { id: ref.taskId });
  if (ref.inviteeId !== undefined) return t('cause.invitee', { id: ref.inviteeId, level: ref.level ?? 1 });
  if (ref.withdrawalId !== undefined) return t('cause.withdrawal', { id: ref.withdrawalId });
  if (ref.linkedAccountId !== undefined) return t('cause.linkedAccount', { id: ref.linkedAccountId });
  return null;
}

/** One wallet movement: type, cause, signed amount (green in, red out), balance after and local time. */
export function BalanceRow({ item }: { item: BalanceItem }) {
  const { t } = useTranslation('wallet');
  const locale = currentLocale();
  const cause = useCause(item);
  const out = item.amount.trim().startsWith('-');
  return (
    <article className="record-row flex space-between">
      <div className="stack record-row-main">
        <p className="record-row-title semibold text-15">{t(`types.${item.type}`)}</p>
        {cause && <p className="record-row-cause ellipsis text-13">{cause}</p>}
        <time className="record-row-time muted text-12" dateTime={item.createdAt}>
          {formatDateTime(item.createdAt, locale)}
        </time>
      </div>
      <div className="stack record-row-side flex-none">
        <p className={out ? 'amount amount-out' : 'amount primary'}>
          {formatMoney(item.amount, locale, { sign: true })}
        </p>
        <p className="record-row-after muted text-12">
          {t('balanceAfter', { amount: formatMoney(item.balanceAfter, locale) })}
        </p>
        <RaiseComplaintLink kind="entry" id={item.id} />
      </div>
    </article>
  );
}
