import type { LinkedEventItem } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Drawer, Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Pager } from '../components/pager';
import { apiCall, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime, rupees } from '../lib/format';

/** The sandbox provider's event log of one linked number, newest first, paged on the server. */
export function LinkedLogDrawer({ phone, onClose }: { phone: string; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = useCursorPages(phone);
  const log = useQuery({
    queryKey: ['linked', 'log', phone, pages.cursor],
    queryFn: () => apiCall('adminWsLog', { query: { phone, cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
  const status = (value: LinkedEventItem['fromStatus']) => (value ? t(`linked.statuses.${value}`) : '—');
  const details = (row: LinkedEventItem) => {
    if (row.amount !== null) {
      return t('linked.settledFor', { amount: rupees(row.amount), hours: ((row.seconds ?? 0) / 3600).toFixed(2) });
    }
    return row.method ? t(`linked.methods.${row.method}`) : '';
  };
  return (
    <Drawer open size={760} onClose={onClose} title={t('linked.logTitle', { phone })}>
      <Table
        rowKey="id"
        size="small"
        loading={log.isFetching}
        dataSource={log.data?.items ?? []}
        pagination={false}
        locale={{
          emptyText: log.isError ? (
            <Typography.Text type="danger">{messageOf(log.error)}</Typography.Text>
          ) : (
            <Empty description={t('table.empty')} />
          ),
        }}
        columns={[
          { title: t('audit.time'), render: (_, row) => dateTime(row.createdAt) },
          { title: t('linked.event'), dataIndex: 'label' },
          {
            title: t('linked.change'),
            render: (_, row) =>
              row.fromStatus === null && row.toStatus === null
                ? ''
                : `${status(row.fromStatus)} → ${status(row.toStatus)}`,
          },
          { title: t('linked.actor'), render: (_, row) => t(`linked.actors.${row.actor}`) },
          { title: t('linked.details'), render: (_, row) => details(row) },
        ]}
      />
      <Pager pages={pages} nextCursor={log.data?.nextCursor} loading={log.isFetching} />
    </Drawer>
  );
}
