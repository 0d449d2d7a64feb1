import type { OutboxItem } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Pager } from '../components/pager';
import { apiCall, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime } from '../lib/format';

export function OutboxPage() {
  const { t } = useTranslation();
  const pages = useCursorPages('');
  const list = useQuery({
    queryKey: ['outbox', pages.cursor],
    queryFn: () => apiCall('adminOtpOutbox', { query: { cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card>
      <Alert type="info" showIcon title={t('outbox.note')} style={{ marginBottom: 16 }} />
      <Table<OutboxItem>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
        columns={[
          { title: t('audit.time'), render: (_, row) => dateTime(row.createdAt) },
          { title: t('outbox.channel'), render: (_, row) => <Tag>{t(`outbox.${row.channel}`)}</Tag> },
          { title: t('outbox.target'), dataIndex: 'target' },
          { title: t('outbox.code'), render: (_, row) => <code style={{ fontSize: 15 }}>{row.code}</code> },
        ]}
      />
      <Pager pages={pages} nextCursor={list.data?.nextCursor} loading={list.isFetching} />
    </Card>
  );
}
