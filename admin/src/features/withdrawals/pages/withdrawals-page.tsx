import {
  type AdminWithdrawalItem,
  parseRupees,
  RISK_REASON_KEYS,
  type RiskReasonKey,
  WITHDRAWAL_STATES,
  type WithdrawalState,
} from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, InputNumber, Popconfirm, Select, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { ExportCard } from '../../../components/export-card';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, rupees } from '../../../lib/format';
import { useUrlFilters } from '../../../lib/url-filters';
import { useWithdrawals, type WithdrawalFilters } from '../api/get-withdrawals';
import { approveAll, useReviewWithdrawal } from '../api/review-withdrawal';
import { RejectDialog } from '../components/reject-dialog';
import { ApprovalsTag, RiskCell, reasonLabel } from '../components/risk-cell';
import { StateTag, stateLabel } from '../components/state-tag';
import { UserHistory } from '../components/user-history';

/** `state=all` in the URL lists every state; no state at all opens on the pending queue. */
const REASONS = Object.values(RISK_REASON_KEYS);
const FILTERS = {
  state: [...WITHDRAWAL_STATES, 'all'],
  userId: 'id',
  from: 'text',
  to: 'text',
  minRisk: 'id',
  reason: REASONS,
  sort: ['queue', 'risk'],
} as const;
const nowrap = () => ({ className: 'nowrap' });
// Room for Approve and Reject side by side in every language (Hindi's are the widest).
const ACTIONS_WIDTH = 200;
/** The columns' widths added up (and the checkbox's): past this the table scrolls sideways. */
const COLUMNS_WIDTH = 32 + 64 + 110 + 150 + 180 + 150 + 120 + 170 + 120 + ACTIONS_WIDTH;

/** The review queue: filters in the URL, approve / reject per row, bulk approve, the user's history. */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [url, setUrl] = useUrlFilters(FILTERS);
  const state = url.state ?? 'pending';
  const filters: WithdrawalFilters = { ...url, state: state === 'all' ? undefined : state };
  const pages = useCursorPages(JSON.stringify(filters));
  const [selected, setSelected] = useState<AdminWithdrawalItem>();
  const [checked, setChecked] = useState<number[]>([]);
  const [rejecting, setRejecting] = useState<AdminWithdrawalItem>();
  const list = useWithdrawals(filters, pages.cursor);
  const review = useReviewWithdrawal(setSelected);

  function bulkApprove() {
    const rows = (list.data?.items ?? []).filter((row) => checked.includes(row.id) && row.state === 'pending');
    // Added in paise: a sum of floats drifts (0.1 + 0.2), a bigint does not.
    const total = rows.reduce((sum, row) => sum + (parseRupees(row.amount) ?? 0n), 0n);
    modal.confirm({
      title: t('withdrawals.bulkTitle', { count: rows.length }),
      content: t('withdrawals.bulkBody', { count: rows.length, total: rupees(total) }),
      okText: t('withdrawals.approve'),
      cancelText: t('actions.cancel'),
      onOk: async () => {
        const { done, failures } = await approveAll(rows);
        setChecked([]);
        void client.invalidateQueries({ queryKey: ['withdrawals'] });
        if (failures.length === 0) void message.success(t('withdrawals.bulkDone', { count: done }));
        else void message.warning(`${t('withdrawals.bulkDone', { count: done })} ${failures.join('; ')}`);
      },
    });
  }

  // The history of the first request shows until the operator picks another row.
  const shown = selected ?? list.data?.items[0];

  return (
    <div className={shown ? 'review review-with-history' : 'review'}>
      <Card>
        <Space wrap className="toolbar">
          <Select
            aria-label={t('withdrawals.state')}
            className="field-m"
            allowClear
            placeholder={t('withdrawals.allStates')}
            value={filters.state}
            onChange={(next?: WithdrawalState) => setUrl({ ...url, state: next ?? 'all' })}
            options={WITHDRAWAL_STATES.map((value) => ({ value, label: stateLabel(value) }))}
          />
          <InputNumber
            aria-label={t('withdrawals.userId')}
            placeholder={t('withdrawals.userId')}
            min={1}
            className="field-s"
            value={filters.userId}
            onChange={(userId) => setUrl({ ...url, userId: userId ?? undefined })}
          />
          <DatePicker.RangePicker
            aria-label={t('filters.dates')}
            value={[url.from ? dayjs(url.from) : null, url.to ? dayjs(url.to) : null]}
            onChange={(range) =>
              setUrl({ ...url, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })
            }
          />
          <InputNumber
            aria-label={t('withdrawals.minRisk')}
            placeholder={t('withdrawals.minRisk')}
            min={1}
            className="field-s"
            value={filters.minRisk}
            onChange={(minRisk) => setUrl({ ...url, minRisk: minRisk ?? undefined })}
          />
          <Select
            aria-label={t('withdrawals.anyReason')}
            className="field-l"
            allowClear
            placeholder={t('withdrawals.anyReason')}
            value={filters.reason}
            onChange={(reason?: RiskReasonKey) => setUrl({ ...url, reason })}
            options={REASONS.map((value) => ({ value, label: reasonLabel(value) }))}
          />
          <Select
            aria-label={t('withdrawals.sortRisk')}
            className="field-m"
            value={filters.sort ?? 'queue'}
            onChange={(sort: 'queue' | 'risk') => setUrl({ ...url, sort: sort === 'queue' ? undefined : sort })}
            options={[
              { value: 'queue', label: t('withdrawals.sortQueue') },
              { value: 'risk', label: t('withdrawals.sortRisk') },
            ]}
          />
          <Button type="primary" disabled={checked.length === 0} onClick={bulkApprove}>
            {t('withdrawals.bulkApprove', { count: checked.length })}
          </Button>
        </Space>
        <DataTable<AdminWithdrawalItem>
          query={list}
          pages={pages}
          className="clickable-rows"
          rowSelection={{
            selectedRowKeys: checked,
            onChange: (keys) => setChecked(keys as number[]),
            getCheckboxProps: (row) => ({ disabled: row.state !== 'pending' }),
          }}
          onRow={(row) => ({ onClick: () => setSelected(row), 'aria-selected': row.id === shown?.id })}
          rowClassName={(row) => (row.id === shown?.id ? 'review-row-current' : '')}
          // State, Requested, Reason and the actions are pinned right: at 1280 px they stay in view beside
          // the ID, amount and user, while the account and risk columns scroll under them.
          scroll={{ x: COLUMNS_WIDTH }}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 64 },
            {
              title: t('withdrawals.amount'),
              width: 110,
              align: 'right',
              onCell: nowrap,
              render: (_, row) => rupees(row.amount),
            },
            {
              title: t('withdrawals.user'),
              width: 150,
              ellipsis: true,
              render: (_, row) => (
                <span title={`${row.username} #${row.userId}`}>
                  {row.username} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
                </span>
              ),
            },
            {
              title: t('withdrawals.account'),
              width: 180,
              ellipsis: true,
              render: (_, row) => `${row.account.accountType.toUpperCase()} · ${row.account.accountNo}`,
            },
            { title: t('withdrawals.risk'), width: 150, render: (_, row) => <RiskCell risk={row.risk} /> },
            {
              title: t('withdrawals.state'),
              width: 120,
              fixed: 'right',
              render: (_, row) => (
                <Space size={4} wrap>
                  <StateTag state={row.state} />
                  <ApprovalsTag item={row} />
                </Space>
              ),
            },
            {
              title: t('withdrawals.requested'),
              width: 170,
              fixed: 'right',
              onCell: nowrap,
              render: (_, row) => dateTime(row.createdAt),
            },
            {
              title: t('withdrawals.reason'),
              width: 120,
              fixed: 'right',
              ellipsis: { showTitle: true },
              render: (_, row) => row.reason ?? '',
            },
            {
              title: t('table.actions'),
              width: ACTIONS_WIDTH,
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
      </Card>
      {shown && <UserHistory item={shown} />}
      <div className="review-wide">
        <ExportCard
          exports={[{ route: 'adminExportWithdrawals', file: 'withdrawals', label: t('users.exportWithdrawals') }]}
        />
      </div>
      {rejecting && (
        <RejectDialog
          item={rejecting}
          saving={review.isPending}
          onClose={() => setRejecting(undefined)}
          onReject={(reason) =>
            void review
              .mutateAsync({ id: rejecting.id, action: 'reject', reason })
              .catch(() => undefined)
              .then(() => setRejecting(undefined))
          }
        />
      )}
    </div>
  );
}
