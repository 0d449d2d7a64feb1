import type { AdminWithdrawalItem } from '@kamai/contract';
import { Card, Descriptions, Empty, List } from 'antd';
import { useTranslation } from 'react-i18next';
import { rejectReasonLabel } from '../../../components/reject-label';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useUserWithdrawals } from '../api/get-withdrawals';
import { StateTag } from './state-tag';

/** The payout account and the user's recent withdrawals, beside the selected request. */
export function UserHistory({ item }: { item: AdminWithdrawalItem }) {
  const { t } = useTranslation();
  const history = useUserWithdrawals(item.userId);
  return (
    <Card
      title={t('withdrawals.historyOf', { user: phoneNumber(item.username) })}
      size="small"
      data-testid="user-history"
    >
      <Descriptions column={1} size="small" className="space-bottom">
        <Descriptions.Item label={t('withdrawals.account')}>
          {item.account.accountType.toUpperCase()} · {item.account.accountNo}
        </Descriptions.Item>
        <Descriptions.Item label={t('withdrawals.holder')}>{item.account.accountName}</Descriptions.Item>
        {item.account.ifsc && <Descriptions.Item label="IFSC">{item.account.ifsc}</Descriptions.Item>}
      </Descriptions>
      <List
        size="small"
        loading={history.isPending}
        locale={{ emptyText: <Empty description={t('table.empty')} /> }}
        dataSource={history.data?.items ?? []}
        renderItem={(row) => (
          <List.Item extra={<StateTag state={row.state} />}>
            <List.Item.Meta
              title={`#${row.id} · ${rupees(row.amount)}`}
              description={`${dateTime(row.createdAt)}${row.reason ? ` · ${rejectReasonLabel(row.reason)}` : ''}`}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
