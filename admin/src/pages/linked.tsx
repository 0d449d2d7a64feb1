import { adminCompleteBody, LINKED_STATUSES, type LinkedStatus } from '@kamai/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, InputNumber, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../components/pager';
import { apiCall, apiRequest, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime, rupees } from '../lib/format';
import { useCan } from '../lib/roles';
import { contractRule } from '../lib/rules';
import { LinkedLogDrawer } from './linked-log';

interface Filters {
  status?: LinkedStatus;
  userId?: number;
  phone?: string;
}

function hours(seconds: number): string {
  return (seconds / 3600).toFixed(1);
}

export function LinkedPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const [filters, setFilters] = useState<Filters>({});
  const [logOf, setLogOf] = useState<string>();
  const [form] = Form.useForm<{ phone: string; code?: string }>();
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useQuery({
    queryKey: ['linked', filters, pages.cursor],
    queryFn: () => apiCall('adminWsList', { query: { ...filters, cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
  const onDone = {
    onSuccess: (result: { message: string }) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['linked'] });
    },
    onError: (error: unknown) => void message.error(messageOf(error)),
  };
  const complete = useMutation({
    mutationFn: (body: { phone: string; code?: string }) =>
      apiRequest('adminWsComplete', { body: { phone: body.phone, code: body.code?.trim() || undefined } }),
    ...onDone,
  });
  const status = useMutation({
    mutationFn: (body: { phone: string; status: LinkedStatus }) => apiRequest('adminWsStatus', { body }),
    ...onDone,
  });
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {can('adminWsComplete') && (
        <Card size="small" title={t('linked.complete')}>
          <Form form={form} layout="inline" onFinish={(values) => complete.mutate(values)}>
            <Form.Item name="phone" label={t('linked.phone')} rules={[contractRule(adminCompleteBody.shape.phone)]}>
              <Input style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="code" label={t('linked.code')}>
              <Input style={{ width: 140 }} placeholder={t('linked.codeHint')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={complete.isPending}>
              {t('linked.completeButton')}
            </Button>
          </Form>
        </Card>
      )}
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            allowClear
            aria-label={t('linked.status')}
            placeholder={t('linked.anyStatus')}
            style={{ width: 200 }}
            onChange={(value?: LinkedStatus) => setFilters({ ...filters, status: value })}
            options={LINKED_STATUSES.map((s) => ({ value: s, label: t(`linked.statuses.${s}`) }))}
          />
          <InputNumber
            aria-label={t('withdrawals.userId')}
            placeholder={t('withdrawals.userId')}
            min={1}
            style={{ width: 140 }}
            onChange={(userId) => setFilters({ ...filters, userId: userId ?? undefined })}
          />
          <Input.Search
            allowClear
            aria-label={t('linked.phone')}
            placeholder={t('linked.phone')}
            style={{ width: 200 }}
            onSearch={(phone) => setFilters({ ...filters, phone: phone.trim() || undefined })}
          />
        </Space>
        <Table
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
          columns={[
            { title: t('linked.phone'), dataIndex: 'phone' },
            { title: t('withdrawals.user'), render: (_, row) => `${row.username} #${row.userId}` },
            {
              title: t('linked.status'),
              render: (_, row) => (
                <Space size={4}>
                  <Tag color={row.status === 'online' ? 'green' : 'default'}>{row.statusLabel}</Tag>
                  {row.pairingPending && <Tag color="gold">{t('linked.pairing')}</Tag>}
                </Space>
              ),
            },
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
                      style={{ width: 190 }}
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
        <Pager pages={pages} nextCursor={list.data?.nextCursor} loading={list.isFetching} />
      </Card>
      {logOf !== undefined && <LinkedLogDrawer phone={logOf} onClose={() => setLogOf(undefined)} />}
    </Space>
  );
}
