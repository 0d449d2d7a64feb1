import { type AdminWithdrawalItem, parseRupees } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Spin, Typography } from 'antd';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { LightCard } from '../../../components/light-card';
import { rejectReasonLabel } from '../../../components/reject-label';
import { WhenSeen } from '../../../components/when-seen';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { holdRefresh, usePauseWhile } from '../../../lib/live';
import { QUEUE_COUNTS_KEY } from '../../../lib/queue-counts';
import { useMe } from '../../../lib/roles';
import { useUrlFilters } from '../../../lib/url-filters';
import { useWide } from '../../../lib/wide';
import { QUEUE_FILTERS, useWithdrawals, type WithdrawalFilters } from '../api/get-withdrawals';
import { approveAll, useReviewWithdrawal } from '../api/review-withdrawal';
import { AmountsLine, ApproveButton, approveBlock } from '../components/approve-button';
import { PayeeCheck } from '../components/payee-check';
import { ApprovalsTag, RiskCell } from '../components/risk-cell';
import { StateTag } from '../components/state-tag';
import { AccountLine, WithdrawalCard } from '../components/withdrawal-card';

// What the queue's first screen does not draw comes in its own chunks (docs/decisions/console-chunks.md):
// the filters (antd's date picker and selects) on a wide screen at once, on a phone when opened; the
// user's history and the export below the queue when scrolled to; the reject dialog when opened.
const QueueFilters = lazy(() => import('../components/queue-filters'));
const UserHistory = lazy(() => import('../components/user-history').then((m) => ({ default: m.UserHistory })));
const ExportCard = lazy(() => import('../../../components/export-card').then((m) => ({ default: m.ExportCard })));
const RejectDialog = lazy(() => import('../components/reject-dialog').then((m) => ({ default: m.RejectDialog })));

const nowrap = () => ({ className: 'nowrap' });

/** The review queue: filters in the URL, approve / reject per row, bulk approve, the user's history. */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [url, setUrl] = useUrlFilters(QUEUE_FILTERS);
  const state = url.state ?? 'pending';
  const filters: WithdrawalFilters = { ...url, state: state === 'all' ? undefined : state };
  const pages = useCursorPages(JSON.stringify(filters));
  const [selected, setSelected] = useState<AdminWithdrawalItem>();
  const [checked, setChecked] = useState<number[]>([]);
  const [rejecting, setRejecting] = useState<AdminWithdrawalItem>();
  const list = useWithdrawals(filters, pages.cursor);
  // The requests are drawn in a deferred pass, which React renders in short slices: a page of cards
  // drawn at once is one long task on a slow phone. Whatever depends on them (the pager, the history,
  // the export) takes the same deferred answer, so nothing shows before the rows that would push it down.
  const answer = useDeferredValue(list.data);
  const review = useReviewWithdrawal(setSelected, () => setRejecting(undefined));
  usePauseWhile(rejecting !== undefined);
  const me = useMe();
  const wide = useWide();
  const [filtersOpen, setFiltersOpen] = useState(false);
  // What the phone's Filters button counts: each filter the URL sets (the pending queue is no filter).
  const filtered = Object.values(url).filter((value) => value !== undefined).length;
  const approvable = (row: AdminWithdrawalItem) => row.state === 'pending' && approveBlock(row, me.id) === null;

  function bulkApprove() {
    const rows = (list.data?.items ?? []).filter((row) => checked.includes(row.id) && approvable(row));
    // Added in paise: a sum of floats drifts (0.1 + 0.2), a bigint does not. Only the approvals that pay
    // send money; a first of two approvals waits for a second reviewer.
    const sent = rows.filter((row) => row.approvals.required < 2 || row.approvals.first);
    const sum = (items: AdminWithdrawalItem[], field: 'amount' | 'fee' | 'payout') =>
      items.reduce((total, row) => total + (parseRupees(row[field]) ?? 0n), 0n);
    const waiting = rows.length - sent.length;
    // The queue holds still while the operator reads the totals (and while the approvals go out).
    const release = holdRefresh();
    modal.confirm({
      afterClose: release,
      title: t('withdrawals.bulkTitle', { count: rows.length }),
      content: [
        t('withdrawals.bulkSends', {
          count: sent.length,
          total: rupees(sum(sent, 'amount')),
          fee: rupees(sum(sent, 'fee')),
          net: rupees(sum(sent, 'payout')),
        }),
        waiting > 0 ? t('withdrawals.bulkWaiting', { count: waiting }) : '',
      ]
        .filter(Boolean)
        .join(' '),
      okText: t('withdrawals.approve'),
      cancelText: t('actions.cancel'),
      onOk: async () => {
        const { done, failures } = await approveAll(rows);
        setChecked([]);
        void client.invalidateQueries({ queryKey: ['withdrawals'] });
        void client.invalidateQueries({ queryKey: QUEUE_COUNTS_KEY });
        if (failures.length === 0) void message.success(t('withdrawals.bulkDone', { count: done }));
        else void message.warning(`${t('withdrawals.bulkDone', { count: done })} ${failures.join('; ')}`);
      },
    });
  }

  const bulkButton = (
    <Button type="primary" disabled={checked.length === 0} onClick={bulkApprove}>
      {t('withdrawals.bulkApprove', { count: checked.length })}
    </Button>
  );

  // The history of the first request shows until the operator picks another row.
  const shown = selected ?? answer?.items[0];

  return (
    <div className={shown ? 'review review-with-history' : 'review'}>
      <LightCard>
        {wide ? (
          // The filters and the button come together, in the row kept for them: nothing moves sideways.
          <Suspense fallback={<div className="toolbar toolbar-waiting" />}>
            <div className="toolbar toolbar-row">
              <QueueFilters url={url} setUrl={setUrl} />
              {bulkButton}
            </div>
          </Suspense>
        ) : (
          <>
            <div className="toolbar toolbar-row">
              <Button aria-expanded={filtersOpen} onClick={() => setFiltersOpen(!filtersOpen)}>
                {filtered > 0 ? t('filters.showCount', { count: filtered }) : t('filters.show')}
              </Button>
              {bulkButton}
            </div>
            {filtersOpen && (
              <Suspense fallback={<Spin className="toolbar" />}>
                <div className="toolbar toolbar-row">
                  <QueueFilters url={url} setUrl={setUrl} />
                </div>
              </Suspense>
            )}
          </>
        )}
        <DataTable<AdminWithdrawalItem>
          query={{ data: answer, isFetching: list.isFetching, error: list.error }}
          pages={pages}
          className="clickable-rows"
          rowSelection={{
            selectedRowKeys: checked,
            onChange: (keys) => setChecked(keys as number[]),
            getCheckboxProps: (row) => ({ disabled: !approvable(row) }),
          }}
          onRow={(row) => ({ onClick: () => setSelected(row), 'aria-selected': row.id === shown?.id })}
          rowClassName={(row) => (row.id === shown?.id ? 'review-row-current' : '')}
          card={(row) => (
            <WithdrawalCard
              item={row}
              onApprove={() => review.mutateAsync({ id: row.id, action: 'approve' })}
              onReject={() => setRejecting(row)}
            />
          )}
          // No sideways scroll: the request (amount, user, account) and the state (with its time
          // and reason) are stacked, so the risk column takes the remaining width and its reasons wrap
          // instead of being cut; under 768 px the rows are cards.
          tableLayout="fixed"
          columns={[
            { title: 'ID', dataIndex: 'id', width: 64 },
            {
              title: t('withdrawals.request'),
              width: 220,
              render: (_, row) => (
                <Space direction="vertical" size={0} className="cell-stack">
                  <Typography.Text strong className="nowrap">
                    {rupees(row.amount)}
                  </Typography.Text>
                  <AmountsLine item={row} />
                  <span>
                    {phoneNumber(row.username)} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
                  </span>
                  <Typography.Text type="secondary" className="cell-wrap">
                    <AccountLine item={row} />
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t('withdrawals.risk'),
              render: (_, row) => (
                <Space direction="vertical" size={4} className="cell-stack">
                  <RiskCell risk={row.risk} />
                  <PayeeCheck item={row} />
                </Space>
              ),
            },
            {
              title: t('withdrawals.state'),
              width: 190,
              render: (_, row) => (
                <Space direction="vertical" size={2} className="cell-stack">
                  <Space size={4} wrap>
                    <StateTag state={row.state} />
                    <ApprovalsTag item={row} />
                  </Space>
                  <Typography.Text type="secondary" className="nowrap">
                    {dateTime(row.createdAt)}
                  </Typography.Text>
                  {row.reason && <span className="cell-wrap">{rejectReasonLabel(row.reason)}</span>}
                </Space>
              ),
            },
            {
              title: t('table.actions'),
              width: 130,
              onCell: nowrap,
              render: (_, row) =>
                row.state === 'pending' ? (
                  <Space direction="vertical" size={6} onClick={(event) => event.stopPropagation()}>
                    <ApproveButton item={row} onApprove={() => review.mutateAsync({ id: row.id, action: 'approve' })} />
                    <Button danger size="small" block onClick={() => setRejecting(row)}>
                      {t('withdrawals.reject')}
                    </Button>
                  </Space>
                ) : null,
            },
          ]}
        />
      </LightCard>
      {/* Below the queue (beside it from 1600 px), drawn when scrolled to: it moves nothing above it. */}
      {shown && (
        <WhenSeen>
          <Suspense fallback={null}>
            <UserHistory item={shown} />
          </Suspense>
        </WhenSeen>
      )}
      {/* Under the queue once it has answered: earlier, the arriving requests would push it down. */}
      {(answer !== undefined || list.isError) && (
        <div className="review-wide">
          <WhenSeen>
            <Suspense fallback={null}>
              <ExportCard
                exports={[
                  { route: 'adminExportWithdrawals', file: 'withdrawals', label: t('users.exportWithdrawals') },
                ]}
              />
            </Suspense>
          </WhenSeen>
        </div>
      )}
      <Suspense fallback={null}>
        {rejecting && (
          <RejectDialog
            item={rejecting}
            saving={review.isPending}
            onClose={() => setRejecting(undefined)}
            onReject={({ preset, reason }) =>
              void review
                .mutateAsync({ id: rejecting.id, action: 'reject', preset, reason: reason?.trim() ?? '' })
                .catch(() => undefined)
                .then(() => setRejecting(undefined))
            }
          />
        )}
      </Suspense>
    </div>
  );
}
