import type { OutboxItem } from '@kamai/contract';
import { Alert, Card, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime } from '../../../lib/format';
import { useOutbox } from '../api/get-outbox';

/** The codes the sandbox sender "sent", for testing without a phone or a mailbox. */
export default function OutboxPage() {
  const { t } = useTranslation();
  const pages = useCursorPages('');
  const list = useOutbox(pages.cursor);
  return (
    <Card>
      <Alert type="info" showIcon title={t('outbox.note')} className="toolbar" />
      <DataTable<OutboxItem>
        query={list}
        pages={pages}
        columns={[
          { title: t('audit.time'), render: (_, row) => dateTime(row.createdAt) },
          { title: t('outbox.channel'), render: (_, row) => <Tag>{t(`outbox.${row.channel}`)}</Tag> },
          { title: t('outbox.target'), dataIndex: 'target' },
          { title: t('outbox.code'), render: (_, row) => <code className="otp-code">{row.code}</code> },
        ]}
      />
    </Card>
  );
}
