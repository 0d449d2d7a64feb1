import type { AuditItem } from '@kamai/contract';
import { Card, DatePicker, Input, InputNumber, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime } from '../../../lib/format';
import { useUrlFilters } from '../../../lib/url-filters';
import { useAuditLog } from '../api/get-audit';
import { JsonCell } from '../components/json-cell';

const FILTERS = { action: 'text', target: 'text', actorId: 'id', from: 'text', to: 'text' } as const;

export default function AuditPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useAuditLog(filters, pages.cursor);
  return (
    <Card>
      <Space wrap className="toolbar">
        <Input.Search
          allowClear
          aria-label={t('audit.action')}
          placeholder={t('audit.actionHint')}
          className="field-m"
          defaultValue={filters.action}
          onSearch={(value) => setFilters({ ...filters, action: value.trim() || undefined })}
        />
        <Input.Search
          allowClear
          aria-label={t('audit.target')}
          placeholder={t('audit.targetHint')}
          className="field-m"
          defaultValue={filters.target}
          onSearch={(value) => setFilters({ ...filters, target: value.trim() || undefined })}
        />
        <InputNumber
          aria-label={t('audit.actorId')}
          placeholder={t('audit.actorId')}
          min={1}
          className="field-s"
          value={filters.actorId}
          onChange={(actorId) => setFilters({ ...filters, actorId: actorId ?? undefined })}
        />
        <DatePicker.RangePicker
          value={[filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]}
          onChange={(range) =>
            setFilters({ ...filters, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })
          }
        />
      </Space>
      <DataTable<AuditItem>
        query={list}
        pages={pages}
        columns={[
          { title: t('audit.time'), width: 170, render: (_, row) => dateTime(row.createdAt) },
          { title: t('audit.actor'), render: (_, row) => `${row.actorUsername} #${row.actorId}` },
          { title: t('audit.action'), dataIndex: 'action', render: (value: string) => <code>{value}</code> },
          { title: t('audit.target'), dataIndex: 'target' },
          { title: t('audit.before'), render: (_, row) => <JsonCell value={row.before} /> },
          { title: t('audit.after'), render: (_, row) => <JsonCell value={row.after} /> },
          {
            title: t('audit.requestId'),
            render: (_, row) => <Typography.Text type="secondary">{row.requestId ?? '—'}</Typography.Text>,
          },
        ]}
      />
    </Card>
  );
}
