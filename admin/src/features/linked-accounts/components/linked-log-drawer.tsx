import type { LinkedEventItem } from '@kamai/contract';
import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, rupees } from '../../../lib/format';
import { useLinkedLog } from '../api/get-linked-accounts';
import { hours } from './linked-status';

/** The sandbox provider's event log of one linked number, newest first, paged on the server. */
export function LinkedLogDrawer({ phone, onClose }: { phone: string; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = useCursorPages(phone);
  const log = useLinkedLog(phone, pages.cursor);
  const status = (value: LinkedEventItem['fromStatus']) => (value ? t(`linked.statuses.${value}`) : '—');
  const details = (row: LinkedEventItem) => {
    if (row.amount !== null) {
      return t('linked.settledFor', { amount: rupees(row.amount), hours: hours(row.seconds ?? 0, 2) });
    }
    return row.method ? t(`linked.methods.${row.method}`) : '';
  };
  return (
    <Drawer open size={760} onClose={onClose} title={t('linked.logTitle', { phone })}>
      <DataTable<LinkedEventItem>
        size="small"
        query={log}
        pages={pages}
        columns={[
          { title: t('audit.time'), render: (_, row) => dateTime(row.createdAt) },
          { title: t('linked.event'), dataIndex: 'label' },
          {
            title: t('linked.change'),
            render: (_, row) =>
              row.fromStatus === null && row.toStatus === null
                ? ''
                : `${status(row.fromStatus)} → ${status(row.toStatus)}`,
          },
          { title: t('linked.actor'), render: (_, row) => t(`linked.actors.${row.actor}`) },
          { title: t('linked.details'), render: (_, row) => details(row) },
        ]}
      />
    </Drawer>
  );
}
