import type { WithdrawalItem, WithdrawalState } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { Dialog } from '../../../lib/dialog';
import '../../../i18n/errors';
import { messageOf } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toast';
import { RaiseComplaintLink } from '../../complaints';
import { AccountLabel } from '../../payout-accounts';
import { useCancelWithdrawal } from '../api/withdrawals';
import { WithdrawalTimeline } from './withdrawal-timeline';
import '../withdrawals.css';

const COLORS: Record<WithdrawalState, 'default' | 'primary' | 'success' | 'warning' | 'danger'> = {
  pending: 'warning',
  approved: 'primary',
  processing: 'primary',
  paid: 'success',
  failed: 'danger',
  rejected: 'danger',
  cancelled: 'default',
  reversed: 'warning',
};

/** Cancels a withdrawal still under review, after asking; the amount returns to the balance. */
function CancelButton({ item, amount }: { item: WithdrawalItem; amount: string }) {
  const { t } = useTranslation('withdrawals');
  const cancel = useCancelWithdrawal();
  const ask = async () => {
    const confirmed = await Dialog.confirm({
      title: t('cancel.title'),
      content: t('cancel.text', { amount }),
      confirmText: t('cancel.confirm'),
      cancelText: t('cancel.keep'),
    });
    if (!confirmed) return;
    cancel.mutate(item.id, {
      onSuccess: ({ message }) => toastSuccess(message),
      onError: (error) => toastError(messageOf(error)),
    });
  };
  return (
    <Button size="mini" shape="rounded" fill="outline" loading={cancel.isPending} onClick={() => void ask()}>
      {t('cancel.action')}
    </Button>
  );
}

/**
 * One withdrawal: amount, account, state chip; while it may still be paid the fee and what arrives,
 * once the money is back in the balance how much came back; then its timeline (each step's time, the
 * bank reference, the reason of a refusal or a return).
 */
export function WithdrawalRow({ item }: { item: WithdrawalItem }) {
  const { t } = useTranslation(['withdrawals', 'errors']);
  const locale = currentLocale();
  const amount = formatMoney(item.amount, locale);
  return (
    <article
      className="record-row withdrawal-row flex space-between"
      aria-label={t('list.rowLabel', { id: item.id, amount })}
    >
      <div className="stack record-row-main">
        <p className="record-row-title semibold text-15">{amount}</p>
        <p className="record-row-cause ellipsis text-13">
          <AccountLabel account={item.account} />
        </p>
        {item.returned !== null ? (
          <p className="withdrawal-returned text-13">
            {t('list.returned', { amount: formatMoney(item.returned, locale) })}
          </p>
        ) : (
          item.fee !== '0.00' && (
            <p className="record-row-time muted text-12">
              {t('list.fee', { fee: formatMoney(item.fee, locale), payout: formatMoney(item.payout, locale) })}
            </p>
          )
        )}
        <WithdrawalTimeline steps={item.timeline} />
      </div>
      <div className="stack record-row-side flex-none">
        <Tag color={COLORS[item.state]} round className="withdrawal-state">
          {t(`errors:${item.stateLabelKey}`)}
        </Tag>
        {item.state === 'pending' && <CancelButton item={item} amount={amount} />}
        <RaiseComplaintLink kind="withdrawal" id={item.id} />
      </div>
    </article>
  );
}
