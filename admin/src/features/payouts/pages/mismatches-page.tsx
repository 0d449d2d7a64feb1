import type { MismatchResolution, PayoutMismatchItem } from '@kamai/contract';
import { Button, Card, Descriptions, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { usePauseWhile } from '../../../lib/live';
import { useCan } from '../../../lib/roles';
import { StateTag } from '../../withdrawals';
import { useMismatches } from '../api/get-mismatches';
import { useResolveMismatch } from '../api/resolve-mismatch';
import { ReconciliationPanel } from '../components/reconciliation-panel';
import { ResolveDialog } from '../components/resolve-dialog';

type Show = 'open' | 'resolved' | 'all';
const nowrap = () => ({ className: 'nowrap' });

/** One recorded callback: its status, when it came and what the gateway sent. */
function Callback({ title, callback }: { title: string; callback: PayoutMismatchItem['callback'] | null }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={1} title={title} bordered>
      {callback ? (
        <>
          <Descriptions.Item label={t('mismatches.callbackStatus')}>{callback.status}</Descriptions.Item>
          <Descriptions.Item label={t('mismatches.receivedAt')}>{dateTime(callback.receivedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('mismatches.payload')}>
            <pre className="json-block">{JSON.stringify(callback.payload, null, 2)}</pre>
          </Descriptions.Item>
        </>
      ) : (
        <Descriptions.Item label={t('mismatches.callbackStatus')}>{t('mismatches.notRecorded')}</Descriptions.Item>
      )}
    </Descriptions>
  );
}

/** What Kamai holds and what the gateway's record says, side by side (reconciliation's mismatches). */
function Details({ details }: { details: Record<string, unknown> }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={1} title={t('mismatches.details')} bordered>
      <Descriptions.Item label="Kamai">
        <pre className="json-block">{JSON.stringify(details.kamai ?? null, null, 2)}</pre>
      </Descriptions.Item>
      <Descriptions.Item label="RazorpayX">
        <pre className="json-block">{JSON.stringify(details.razorpayx ?? null, null, 2)}</pre>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * Payout mismatches: a gateway's report or record that disagrees with what Kamai holds (a callback
 * contradicting a final state, or a difference the daily reconciliation found). Each row opens to the
 * callbacks or the two records; an admin recovers the amount from the wallet or dismisses with a reason.
 */
export default function MismatchesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [show, setShow] = useState<Show>('open');
  const resolved = show === 'all' ? undefined : show === 'resolved';
  const pages = useCursorPages(show);
  const list = useMismatches(resolved, pages.cursor);
  const [resolving, setResolving] = useState<{ item: PayoutMismatchItem; action: MismatchResolution }>();
  usePauseWhile(resolving !== undefined);
  const resolve = useResolveMismatch(() => setResolving(undefined));

  return (
    <Card>
      <ReconciliationPanel />
      <Space wrap className="toolbar">
        <Segmented<Show>
          value={show}
          onChange={setShow}
          options={[
            { value: 'open', label: t('mismatches.open') },
            { value: 'resolved', label: t('mismatches.resolved') },
            { value: 'all', label: t('mismatches.all') },
          ]}
        />
      </Space>
      <DataTable<PayoutMismatchItem>
        query={list}
        pages={pages}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (row) => (
            <div className="mismatch-callbacks">
              {row.details ? (
                <Details details={row.details} />
              ) : (
                <>
                  <Callback title={t('mismatches.settledBy')} callback={row.settledBy} />
                  <Callback title={t('mismatches.contradiction')} callback={row.callback} />
                </>
              )}
            </div>
          ),
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          {
            title: t('mismatches.kind'),
            onCell: nowrap,
            render: (_, row) => <Tag>{t(`mismatches.kinds.${row.kind}`)}</Tag>,
          },
          {
            title: t('mismatches.withdrawal'),
            onCell: nowrap,
            render: (_, row) => (row.withdrawalId === null ? (row.payoutId ?? '—') : `#${row.withdrawalId}`),
          },
          {
            title: t('withdrawals.user'),
            onCell: nowrap,
            render: (_, row) =>
              row.username === null ? (
                '—'
              ) : (
                <span>
                  {phoneNumber(row.username)} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
                </span>
              ),
          },
          { title: t('mismatches.gateway'), dataIndex: 'gateway', onCell: nowrap },
          {
            title: t('mismatches.state'),
            onCell: nowrap,
            render: (_, row) => (row.state ? <StateTag state={row.state} /> : '—'),
          },
          {
            title: t('mismatches.callbackStatus'),
            onCell: nowrap,
            render: (_, row) => <Tag color="red">{row.callbackStatus}</Tag>,
          },
          {
            title: t('withdrawals.amount'),
            align: 'right',
            onCell: nowrap,
            render: (_, row) =>
              !row.amount
                ? row.callbackAmount
                  ? rupees(row.callbackAmount)
                  : '—'
                : row.callbackAmount && row.callbackAmount !== row.amount
                  ? `${rupees(row.amount)} ≠ ${rupees(row.callbackAmount)}`
                  : rupees(row.amount),
          },
          {
            title: t('mismatches.reference'),
            onCell: nowrap,
            render: (_, row) => [row.reference, row.callbackReference].filter(Boolean).join(' / ') || '—',
          },
          { title: t('mismatches.createdAt'), onCell: nowrap, render: (_, row) => dateTime(row.createdAt) },
          {
            title: t('mismatches.status'),
            render: (_, row) =>
              row.resolved ? (
                <span>
                  <Tag color="green">
                    {t(row.resolution === 'recover' ? 'mismatches.recovered' : 'mismatches.dismissed')}
                  </Tag>
                  {row.resolutionReason}
                </span>
              ) : (
                <Tag color="red">{t('mismatches.open')}</Tag>
              ),
          },
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              row.resolved || !can('adminPayoutMismatchResolve') ? null : (
                <Space>
                  <Button
                    danger
                    size="small"
                    disabled={!row.recoverable}
                    title={row.recoverable ? undefined : t('mismatches.notRecoverable')}
                    onClick={() => setResolving({ item: row, action: 'recover' })}
                  >
                    {t('mismatches.recover')}
                  </Button>
                  <Button size="small" onClick={() => setResolving({ item: row, action: 'dismiss' })}>
                    {t('mismatches.dismiss')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {resolving && (
        <ResolveDialog
          item={resolving.item}
          action={resolving.action}
          saving={resolve.isPending}
          onClose={() => setResolving(undefined)}
          onResolve={(reason) =>
            void resolve.mutateAsync({ id: resolving.item.id, action: resolving.action, reason }).catch(() => undefined)
          }
        />
      )}
    </Card>
  );
}
