import {
  type AdminWithdrawalItem,
  adminWithdrawReviewBody,
  REJECT_REASON_MAX,
  WITHDRAWAL_STATES,
  type WithdrawalState,
} from '@kamai/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportCard } from '../components/export-card';
import { Pager } from '../components/pager';
import { StateTag, stateLabel } from '../components/state-tag';
import { apiCall, apiRequest, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime, rupees } from '../lib/format';
import { contractRule } from '../lib/rules';

interface Filters {
  state?: WithdrawalState;
  userId?: number;
  from?: string;
  to?: string;
}

/** Rejecting needs a reason (the body's own refine says so on the whole object). */
const reasonSchema = adminWithdrawReviewBody.shape.reason.refine((v) => v !== '', 'enter_reject_reason');

/** The user's recent withdrawals, beside the selected request. */
function UserHistory({ item }: { item: AdminWithdrawalItem }) {
  const { t } = useTranslation();
  const history = useQuery({
    queryKey: ['withdrawals', 'user', item.userId],
    queryFn: () => apiCall('adminWithdrawList', { query: { userId: item.userId, limit: 10 } }),
  });
  return (
    <Card title={t('withdrawals.historyOf', { user: item.username })} size="small" data-testid="user-history">
      <Descriptions column={1} size="small" style={{ marginBottom: 12 }}>
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
              description={`${dateTime(row.createdAt)}${row.reason ? ` · ${row.reason}` : ''}`}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}

export function WithdrawalsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ state: 'pending' });
  const pages = useCursorPages(JSON.stringify(filters));
  const [selected, setSelected] = useState<AdminWithdrawalItem>();
  const [checked, setChecked] = useState<number[]>([]);
  const [rejecting, setRejecting] = useState<AdminWithdrawalItem>();
  const [reasonForm] = Form.useForm<{ reason: string }>();

  const list = useQuery({
    queryKey: ['withdrawals', filters, pages.cursor],
    queryFn: () => apiCall('adminWithdrawList', { query: { ...filters, cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });

  const review = useMutation({
    mutationFn: (body: { id: number; action: 'approve' | 'reject'; reason?: string }) =>
      apiRequest('adminWithdrawReview', { body }),
    onSuccess: (result) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['withdrawals'] });
      setSelected(result.data);
    },
    onError: (error) => void message.error(messageOf(error)),
  });

  function bulkApprove() {
    const rows = (list.data?.items ?? []).filter((row) => checked.includes(row.id) && row.state === 'pending');
    const total = rows.reduce((sum, row) => sum + Math.round(Number(row.amount) * 100), 0);
    modal.confirm({
      title: t('withdrawals.bulkTitle', { count: rows.length }),
      content: t('withdrawals.bulkBody', { count: rows.length, total: rupees((total / 100).toFixed(2)) }),
      okText: t('withdrawals.approve'),
      cancelText: t('actions.cancel'),
      onOk: async () => {
        let done = 0;
        const failures: string[] = [];
        for (const row of rows) {
          try {
            await apiCall('adminWithdrawReview', { body: { id: row.id, action: 'approve' } });
            done += 1;
          } catch (error) {
            failures.push(`#${row.id}: ${messageOf(error)}`);
          }
        }
        setChecked([]);
        void client.invalidateQueries({ queryKey: ['withdrawals'] });
        if (failures.length === 0) void message.success(t('withdrawals.bulkDone', { count: done }));
        else void message.warning(`${t('withdrawals.bulkDone', { count: done })} ${failures.join('; ')}`);
      },
    });
  }

  async function confirmReject() {
    if (!rejecting) return;
    const { reason } = await reasonForm.validateFields();
    await review.mutateAsync({ id: rejecting.id, action: 'reject', reason }).catch(() => undefined);
    setRejecting(undefined);
    reasonForm.resetFields();
  }

  const pendingChecked = checked.length;
  // The history of the first request shows until the operator picks another row.
  const shown = selected ?? list.data?.items[0];
  const nowrap = () => ({ style: { whiteSpace: 'nowrap' as const } });

  return (
    <div style={{ display: 'grid', gridTemplateColumns: shown ? 'minmax(0, 1fr) 340px' : '1fr', gap: 16 }}>
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            aria-label={t('withdrawals.state')}
            style={{ width: 180 }}
            allowClear
            placeholder={t('withdrawals.allStates')}
            value={filters.state}
            onChange={(state?: WithdrawalState) => setFilters({ ...filters, state })}
            options={WITHDRAWAL_STATES.map((state) => ({ value: state, label: stateLabel(state) }))}
          />
          <InputNumber
            aria-label={t('withdrawals.userId')}
            placeholder={t('withdrawals.userId')}
            min={1}
            style={{ width: 140 }}
            value={filters.userId}
            onChange={(userId) => setFilters({ ...filters, userId: userId ?? undefined })}
          />
          <DatePicker.RangePicker
            aria-label={t('filters.dates')}
            onChange={(range) =>
              setFilters({
                ...filters,
                from: range?.[0]?.format('YYYY-MM-DD'),
                to: range?.[1]?.format('YYYY-MM-DD'),
              })
            }
          />
          <Button type="primary" disabled={pendingChecked === 0} onClick={bulkApprove}>
            {t('withdrawals.bulkApprove', { count: pendingChecked })}
          </Button>
        </Space>
        <Table<AdminWithdrawalItem>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
          rowSelection={{
            selectedRowKeys: checked,
            onChange: (keys) => setChecked(keys as number[]),
            getCheckboxProps: (row) => ({ disabled: row.state !== 'pending' }),
          }}
          onRow={(row) => ({ onClick: () => setSelected(row), style: { cursor: 'pointer' } })}
          rowClassName={(row) => (row.id === shown?.id ? 'ant-table-row-selected' : '')}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 70 },
            {
              title: t('withdrawals.user'),
              onCell: nowrap,
              render: (_, row) => (
                <span>
                  {row.username} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
                </span>
              ),
            },
            { title: t('withdrawals.amount'), align: 'right', onCell: nowrap, render: (_, row) => rupees(row.amount) },
            {
              title: t('withdrawals.account'),
              onCell: nowrap,
              render: (_, row) => `${row.account.accountType.toUpperCase()} · ${row.account.accountNo}`,
            },
            { title: t('withdrawals.state'), onCell: nowrap, render: (_, row) => <StateTag state={row.state} /> },
            { title: t('withdrawals.requested'), onCell: nowrap, render: (_, row) => dateTime(row.createdAt) },
            {
              title: t('withdrawals.reason'),
              render: (_, row) => row.reason ?? '',
              ellipsis: true,
            },
            {
              title: t('table.actions'),
              width: 190,
              // Always in view, also when the table scrolls sideways beside the user's history.
              fixed: 'right',
              render: (_, row) =>
                row.state === 'pending' ? (
                  <Space onClick={(event) => event.stopPropagation()}>
                    <Popconfirm
                      title={t('withdrawals.approveConfirm', { amount: rupees(row.amount), user: row.username })}
                      okText={t('withdrawals.approve')}
                      cancelText={t('actions.cancel')}
                      onConfirm={() => review.mutateAsync({ id: row.id, action: 'approve' }).catch(() => undefined)}
                    >
                      <Button type="primary" size="small">
                        {t('withdrawals.approve')}
                      </Button>
                    </Popconfirm>
                    <Button danger size="small" onClick={() => setRejecting(row)}>
                      {t('withdrawals.reject')}
                    </Button>
                  </Space>
                ) : null,
            },
          ]}
        />
        <Pager pages={pages} nextCursor={list.data?.nextCursor} loading={list.isFetching} />
      </Card>
      {shown && <UserHistory item={shown} />}
      <div style={{ gridColumn: '1 / -1' }}>
        <ExportCard
          exports={[{ route: 'adminExportWithdrawals', file: 'withdrawals', label: t('users.exportWithdrawals') }]}
        />
      </div>
      <Modal
        open={rejecting !== undefined}
        title={t('withdrawals.rejectTitle', { id: rejecting?.id ?? '' })}
        okText={t('withdrawals.reject')}
        okButtonProps={{ danger: true, loading: review.isPending }}
        cancelText={t('actions.cancel')}
        onOk={() => void confirmReject()}
        onCancel={() => {
          setRejecting(undefined);
          reasonForm.resetFields();
        }}
        destroyOnHidden
      >
        <Form form={reasonForm} layout="vertical">
          <Form.Item label={t('withdrawals.rejectReason')} name="reason" rules={[contractRule(reasonSchema)]}>
            <Input.TextArea rows={3} maxLength={REJECT_REASON_MAX} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
