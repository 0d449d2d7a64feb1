import type { AuditItem } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Empty, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../components/pager';
import { apiCall, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime } from '../lib/format';

interface Filters {
  action?: string;
  target?: string;
  actorId?: number;
  from?: string;
  to?: string;
}

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <pre style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', maxWidth: 360 }}>
      {JSON.stringify(value, null, 1)}
    </pre>
  );
}

export function AuditPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useQuery({
    queryKey: ['audit', filters, pages.cursor],
    queryFn: () => apiCall('adminAuditList', { query: { ...filters, cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          aria-label={t('audit.action')}
          placeholder={t('audit.actionHint')}
          style={{ width: 220 }}
          onSearch={(value) => setFilters({ ...filters, action: value.trim() || undefined })}
        />
        <Input.Search
          allowClear
          aria-label={t('audit.target')}
          placeholder={t('audit.targetHint')}
          style={{ width: 220 }}
          onSearch={(value) => setFilters({ ...filters, target: value.trim() || undefined })}
        />
        <InputNumber
          aria-label={t('audit.actorId')}
          placeholder={t('audit.actorId')}
          min={1}
          style={{ width: 140 }}
          onChange={(actorId) => setFilters({ ...filters, actorId: actorId ?? undefined })}
        />
        <DatePicker.RangePicker
          onChange={(range) =>
            setFilters({ ...filters, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })
          }
        />
      </Space>
      <Table<AuditItem>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
        columns={[
          { title: t('audit.time'), width: 170, render: (_, row) => dateTime(row.createdAt) },
          { title: t('audit.actor'), render: (_, row) => `${row.actorUsername} #${row.actorId}` },
          { title: t('audit.action'), dataIndex: 'action', render: (value: string) => <code>{value}</code> },
          { title: t('audit.target'), dataIndex: 'target' },
          { title: t('audit.before'), render: (_, row) => <Json value={row.before} /> },
          { title: t('audit.after'), render: (_, row) => <Json value={row.after} /> },
          {
            title: t('audit.requestId'),
            render: (_, row) => <Typography.Text type="secondary">{row.requestId ?? '—'}</Typography.Text>,
          },
        ]}
      />
      <Pager pages={pages} nextCursor={list.data?.nextCursor} loading={list.isFetching} />
    </Card>
  );
}
