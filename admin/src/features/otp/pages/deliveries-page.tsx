import type { DeliveryItem, DeliveryStatus } from '@kamai/contract';
import { Alert, Card, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime } from '../../../lib/format';
import { useUrlFilters } from '../../../lib/url-filters';
import { useDeliveries } from '../api/get-deliveries';

const FILTERS = { target: 'text' } as const;
const STATUS_COLOR: Record<DeliveryStatus, string> = {
  sent: 'blue',
  delivered: 'green',
  undelivered: 'red',
  failed: 'orange',
};

/** Delivery status per target: every attempt of every provider (a failover shows as two rows); never the code. */
export default function DeliveriesPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useDeliveries(filters.target, pages.cursor);
  return (
    <Card>
      <Alert type="info" showIcon title={t('deliveries.note')} className="toolbar" />
      <Space wrap className="toolbar">
        <Input.Search
          allowClear
          aria-label={t('deliveries.target')}
          placeholder={t('deliveries.targetHint')}
          className="field-m"
          defaultValue={filters.target}
          onSearch={(value) => setFilters({ target: value.trim() || undefined })}
        />
      </Space>
      <DataTable<DeliveryItem>
        query={list}
        pages={pages}
        columns={[
          { title: t('audit.time'), width: 170, render: (_, row) => dateTime(row.createdAt) },
          { title: t('deliveries.target'), dataIndex: 'target' },
          {
            title: t('deliveries.kind'),
            render: (_, row) => `${t(`outbox.${row.channel}`)} · ${t(`deliveries.kinds.${row.kind}`)}`,
          },
          { title: t('deliveries.provider'), dataIndex: 'provider', render: (value: string) => <code>{value}</code> },
          {
            title: t('deliveries.status'),
            render: (_, row) => <Tag color={STATUS_COLOR[row.status]}>{t(`deliveries.statuses.${row.status}`)}</Tag>,
          },
          {
            title: t('deliveries.detail'),
            render: (_, row) => (
              <Typography.Text type="secondary">{row.error ?? row.providerMessageId ?? '—'}</Typography.Text>
            ),
          },
          { title: t('deliveries.updated'), width: 170, render: (_, row) => dateTime(row.updatedAt) },
        ]}
      />
    </Card>
  );
}
