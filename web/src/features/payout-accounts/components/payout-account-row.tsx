import type { PayoutAccountItem } from '@kamai/contract';
import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { Dialog } from '../../../lib/dialog';
import { showForm } from '../../../lib/form-dialog';
import { toastError, toastSuccess } from '../../../lib/toast';
import { RaiseComplaintLink } from '../../complaints';
import { useDeletePayoutAccount } from '../api/payout-accounts';
import { AccountLabel } from './account-label';

/** One saved payout account: masked number, type, default badge, edit and delete (after confirming). */
export function PayoutAccountRow({ item }: { item: PayoutAccountItem }) {
  const { t } = useTranslation('payoutAccounts');
  const remove = useDeletePayoutAccount();
  const name = `${t(`account.${item.accountType}`)} ${item.accountNoMasked}`;

  const onEdit = () =>
    showForm(
      'payoutAccount',
      {
        id: String(item.id),
        accountType: item.accountType,
        ifsc: item.ifsc,
        accountName: item.accountName,
        isDefault: String(item.isDefault),
        masked: item.accountNoMasked,
      },
      t('account.editTitle'),
    );
  const onDelete = () => {
    void Dialog.confirm({
      title: t('methods.deleteTitle'),
      content: t('methods.deleteText', { account: name }),
      confirmText: t('methods.delete'),
      cancelText: t('methods.cancel'),
      onConfirm: async () => {
        try {
          toastSuccess((await remove.mutateAsync(item.id)).message);
        } catch (error) {
          toastError(messageOf(error));
        }
      },
    });
  };

  return (
    <article className="stack payout-row" aria-label={name}>
      <div className="payout-row-main flex space-between">
        <AccountLabel account={item} />
        {item.isDefault === 1 && (
          <Tag color="primary" fill="outline" round className="flex-none">
            {t('methods.default')}
          </Tag>
        )}
      </div>
      <div className="payout-row-actions row">
        <Button size="mini" shape="rounded" onClick={onEdit}>
          {t('methods.edit')}
        </Button>
        <Button size="mini" shape="rounded" color="danger" fill="outline" loading={remove.isPending} onClick={onDelete}>
          {t('methods.delete')}
        </Button>
        <RaiseComplaintLink kind="payout_account" id={item.id} />
      </div>
    </article>
  );
}
