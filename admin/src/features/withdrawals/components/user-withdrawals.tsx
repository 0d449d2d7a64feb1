import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { dateTime, rupees } from '../../../lib/format';
import { useUserWithdrawals } from '../api/get-withdrawals';
import { StateTag } from './state-tag';

/** The user's newest withdrawals in the user's drawer (the review queue filters by user for more). */
export function UserWithdrawals({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const list = useUserWithdrawals(userId);
  return (
    <div>
      <DataTable
        title={t('users.withdrawals')}
        size="small"
        query={list}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          { title: t('withdrawals.requested'), render: (_, row) => dateTime(row.createdAt) },
          { title: t('withdrawals.amount'), align: 'right', render: (_, row) => rupees(row.amount) },
          { title: t('withdrawals.state'), render: (_, row) => <StateTag state={row.state} /> },
          { title: t('withdrawals.reason'), ellipsis: true, render: (_, row) => row.reason ?? '' },
        ]}
      />
    </div>
  );
}
