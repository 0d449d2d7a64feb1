import type { UnclaimedMoneyItem } from '@kamai/contract';
import { Alert, Button, Card, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, rupees } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { useUnclaimed } from '../api/get-unclaimed';
import { useHandleUnclaimed } from '../api/handle-unclaimed';
import { HandleUnclaimedDialog } from '../components/handle-unclaimed-dialog';

type Show = 'open' | 'handled' | 'all';
const nowrap = () => ({ className: 'nowrap' });

/**
 * Money that came back for deleted accounts (a payout the bank reversed after the deletion): it sits
 * in the platform's unclaimed account, never in the deleted wallet. An admin finds out what to do with
 * it and marks it handled with a note; the money stays where it is.
 */
export default function UnclaimedPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [show, setShow] = useState<Show>('open');
  const handled = show === 'all' ? undefined : show === 'handled';
  const pages = useCursorPages(show);
  const list = useUnclaimed(handled, pages.cursor);
  const [handling, setHandling] = useState<UnclaimedMoneyItem>();
  const handle = useHandleUnclaimed(() => setHandling(undefined));

  return (
    <Card>
      <Alert className="form-note" type="info" message={t('unclaimed.intro')} />
      <Space wrap className="toolbar">
        <Segmented<Show>
          value={show}
          onChange={setShow}
          options={[
            { value: 'open', label: t('unclaimed.open') },
            { value: 'handled', label: t('unclaimed.handled') },
            { value: 'all', label: t('unclaimed.all') },
          ]}
        />
      </Space>
      <DataTable<UnclaimedMoneyItem>
        query={list}
        pages={pages}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          {
            title: t('unclaimed.account'),
            onCell: nowrap,
            render: (_, row) => (
              <span>
                {row.username} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
              </span>
            ),
          },
          { title: t('withdrawals.amount'), align: 'right', onCell: nowrap, render: (_, row) => rupees(row.amount) },
          {
            title: t('unclaimed.kind'),
            onCell: nowrap,
            render: (_, row) => <Tag color="orange">{t(`unclaimed.kinds.${row.kind}`)}</Tag>,
          },
          {
            title: t('unclaimed.withdrawal'),
            onCell: nowrap,
            render: (_, row) => (
              <span>
                #{row.withdrawalId} <Typography.Text type="secondary">{row.accountNo}</Typography.Text>
              </span>
            ),
          },
          {
            title: t('unclaimed.payout'),
            render: (_, row) => (
              <span>
                {row.payoutId ?? '—'}
                <br />
                <Typography.Text type="secondary">
                  {[row.gateway, row.reference].filter(Boolean).join(' · ')}
                </Typography.Text>
              </span>
            ),
          },
          { title: t('unclaimed.reason'), className: 'untrusted-text', render: (_, row) => row.reason ?? '—' },
          { title: t('unclaimed.createdAt'), onCell: nowrap, render: (_, row) => dateTime(row.createdAt) },
          {
            title: t('unclaimed.status'),
            className: 'untrusted-text',
            render: (_, row) =>
              row.handled ? (
                <span>
                  <Tag color="green">{t('unclaimed.handled')}</Tag>
                  {row.note}
                </span>
              ) : (
                <Tag color="red">{t('unclaimed.open')}</Tag>
              ),
          },
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              row.handled || !can('adminUnclaimedHandle') ? null : (
                <Button size="small" onClick={() => setHandling(row)}>
                  {t('unclaimed.handle')}
                </Button>
              ),
          },
        ]}
      />
      {handling && (
        <HandleUnclaimedDialog
          item={handling}
          saving={handle.isPending}
          onClose={() => setHandling(undefined)}
          onHandle={(note) => void handle.mutateAsync({ id: handling.id, note }).catch(() => undefined)}
        />
      )}
    </Card>
  );
}
