import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { dateTime, rupees } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { useLinkedAccounts } from '../api/get-linked-accounts';
import { LinkedStatusTag } from './linked-status';

/** The user's linked numbers in the user's drawer (admins only: the linked-account routes are theirs). */
export function UserLinkedAccounts({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const allowed = can('adminWsList');
  const list = useLinkedAccounts({ userId }, undefined, allowed);
  if (!allowed) return null;
  return (
    <div>
      <DataTable
        title={t('users.linked')}
        size="small"
        query={list}
        columns={[
          { title: t('linked.phone'), dataIndex: 'phone' },
          {
            title: t('linked.status'),
            render: (_, row) => <LinkedStatusTag row={{ ...row, pairingPending: false }} />,
          },
          { title: t('linked.linkedAt'), render: (_, row) => dateTime(row.linkedAt) },
          { title: t('linked.earnings'), align: 'right', render: (_, row) => rupees(row.earnings) },
        ]}
      />
    </div>
  );
}
