import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DrawerTable } from '../components/drawer-table';
import { StateTag } from '../components/state-tag';
import { apiCall } from '../lib/api';
import { dateTime, rupees } from '../lib/format';
import { useCan } from '../lib/roles';

const RECENT = 10;

/** The user's newest withdrawals in the detail drawer (the review queue filters by user for more). */
export function UserWithdrawals({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['withdrawals', 'user', userId, 'drawer'],
    queryFn: () => apiCall('adminWithdrawList', { query: { userId, limit: RECENT } }),
  });
  return (
    <DrawerTable
      title={t('users.withdrawals')}
      rows={list.data?.items}
      loading={list.isPending}
      error={list.error}
      columns={[
        { title: 'ID', dataIndex: 'id', width: 60 },
        { title: t('withdrawals.requested'), render: (_, row) => dateTime(row.createdAt) },
        { title: t('withdrawals.amount'), align: 'right', render: (_, row) => rupees(row.amount) },
        { title: t('withdrawals.state'), render: (_, row) => <StateTag state={row.state} /> },
        { title: t('withdrawals.reason'), ellipsis: true, render: (_, row) => row.reason ?? '' },
      ]}
    />
  );
}

/** The user's linked numbers in the detail drawer (admins only: the linked-account routes are theirs). */
export function UserLinkedAccounts({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const allowed = can('adminWsList');
  const list = useQuery({
    queryKey: ['linked', { userId }, 'drawer'],
    queryFn: () => apiCall('adminWsList', { query: { userId, limit: 20 } }),
    enabled: allowed,
  });
  if (!allowed) return null;
  return (
    <DrawerTable
      title={t('users.linked')}
      rows={list.data?.items}
      loading={list.isPending}
      error={list.error}
      columns={[
        { title: t('linked.phone'), dataIndex: 'phone' },
        {
          title: t('linked.status'),
          render: (_, row) => <Tag color={row.status === 'online' ? 'green' : 'default'}>{row.statusLabel}</Tag>,
        },
        { title: t('linked.linkedAt'), render: (_, row) => dateTime(row.linkedAt) },
        { title: t('linked.earnings'), align: 'right', render: (_, row) => rupees(row.earnings) },
      ]}
    />
  );
}
