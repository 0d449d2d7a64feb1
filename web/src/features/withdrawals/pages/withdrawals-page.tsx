import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../../components/paged-list';
import { showForm } from '../../../lib/form-dialog';
import { useWithdrawals } from '../api/withdrawals';
import { WithdrawalRow } from '../components/withdrawal-row';
import '../withdrawals.css';

/** /List4: the caller's withdrawals, newest first, with their state and the reason of a refusal. */
export function WithdrawalsPage() {
  const { t } = useTranslation('withdrawals');
  const query = useWithdrawals();
  return (
    <PagedList
      query={query}
      label={t('list.label')}
      keyOf={(item) => item.id}
      renderItem={(item) => <WithdrawalRow item={item} />}
      empty={{ title: t('list.empty.title'), description: t('list.empty.description') }}
      header={
        <div className="payout-add payout-add-top">
          <Button block color="primary" fill="outline" onClick={() => showForm('withdraw')}>
            {t('list.withdraw')}
          </Button>
        </div>
      }
    />
  );
}
