import { adminCompleteBody, LINKED_STATUSES, type LinkedStatus } from '@kamai/contract';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { contractRule } from '../../../lib/rules';
import { useUrlFilters } from '../../../lib/url-filters';
import { useLinkedAccounts } from '../api/get-linked-accounts';
import { useCompleteLink, useSetLinkedStatus } from '../api/linked-actions';
import { LinkedLogDrawer } from '../components/linked-log-drawer';
import { hours, LinkedStatusTag } from '../components/linked-status';

const FILTERS = { status: LINKED_STATUSES, userId: 'id', phone: 'text' } as const;

export default function LinkedAccountsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const [logOf, setLogOf] = useState<string>();
  const [form] = Form.useForm<{ phone: string; code?: string }>();
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useLinkedAccounts(filters, pages.cursor);
  const complete = useCompleteLink();
  const status = useSetLinkedStatus();
  return (
    <Space orientation="vertical" size="middle" className="stack">
      <Alert type="info" showIcon title={t('linked.manualMode')} description={t('linked.manualModeHint')} />
      {can('adminWsComplete') && (
        <Card size="small" title={t('linked.complete')}>
          <Form form={form} layout="inline" onFinish={(values) => complete.mutate(values)}>
            <Form.Item name="phone" label={t('linked.phone')} rules={[contractRule(adminCompleteBody.shape.phone)]}>
              <Input className="field-m" />
            </Form.Item>
            <Form.Item name="code" label={t('linked.code')}>
              <Input className="field-s" placeholder={t('linked.codeHint')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={complete.isPending}>
              {t('linked.completeButton')}
            </Button>
          </Form>
        </Card>
      )}
      <Card>
        <Space wrap className="toolbar">
          <Select
            allowClear
            aria-label={t('linked.status')}
            placeholder={t('linked.anyStatus')}
            className="field-m"
            value={filters.status}
            onChange={(value?: LinkedStatus) => setFilters({ ...filters, status: value })}
            options={LINKED_STATUSES.map((s) => ({ value: s, label: t(`linked.statuses.${s}`) }))}
          />
          <InputNumber
            aria-label={t('withdrawals.userId')}
            placeholder={t('withdrawals.userId')}
            min={1}
            className="field-s"
            value={filters.userId}
            onChange={(userId) => setFilters({ ...filters, userId: userId ?? undefined })}
          />
          <Input.Search
            allowClear
            aria-label={t('linked.phone')}
            placeholder={t('linked.phone')}
            className="field-m"
            defaultValue={filters.phone}
            onSearch={(phone) => setFilters({ ...filters, phone: phone.trim() || undefined })}
          />
        </Space>
        <DataTable
          query={list}
          pages={pages}
          columns={[
            { title: t('linked.phone'), dataIndex: 'phone' },
            { title: t('withdrawals.user'), render: (_, row) => `${phoneNumber(row.username)} #${row.userId}` },
            { title: t('linked.status'), render: (_, row) => <LinkedStatusTag row={row} /> },
            { title: t('linked.linkedAt'), render: (_, row) => dateTime(row.linkedAt) },
            { title: t('linked.online'), render: (_, row) => hours(row.onlineSeconds) },
            { title: t('linked.earnings'), align: 'right', render: (_, row) => rupees(row.earnings) },
            {
              title: t('table.actions'),
              render: (_, row) => (
                <Space>
                  {can('adminWsLog') && <Button onClick={() => setLogOf(row.phone)}>{t('linked.log')}</Button>}
                  {can('adminWsStatus') && (
                    <Select<LinkedStatus>
                      aria-label={t('linked.setStatus')}
                      placeholder={t('linked.setStatus')}
                      className="field-m"
                      value={null as unknown as LinkedStatus}
                      options={LINKED_STATUSES.filter((s) => s !== row.status).map((s) => ({
                        value: s,
                        label: t(`linked.statuses.${s}`),
                      }))}
                      onChange={(value) => status.mutate({ phone: row.phone, status: value })}
                    />
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {logOf !== undefined && <LinkedLogDrawer phone={logOf} onClose={() => setLogOf(undefined)} />}
    </Space>
  );
}
