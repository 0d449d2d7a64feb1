import type { LedgerViolation } from '@kamai/contract';
import { Card, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { dateTime, rupees } from '../../../lib/format';

type Posting = LedgerViolation['postings'][number];
type Entry = Posting['entries'][number];

/** A rule's name in the operator's language; a rule this console does not know shows its own name. */
export function useRuleLabel() {
  const { t } = useTranslation();
  return {
    title: (rule: string) => t(`ledger.rules.${rule}.title`, { defaultValue: rule }),
    description: (rule: string) => t(`ledger.rules.${rule}.description`, { defaultValue: t('ledger.otherRule') }),
  };
}

function EntryLine({ entry }: { entry: Entry }) {
  const { t } = useTranslation();
  const kind = t(`ledger.kinds.${entry.kind}`, { defaultValue: entry.kind });
  const negative = entry.amount.startsWith('-');
  return (
    <div className="ledger-entry">
      <span>
        {entry.userId === null
          ? t('ledger.platformAccount', { kind })
          : t('ledger.userAccount', { id: entry.userId, kind })}{' '}
        <Typography.Text type="secondary">#{entry.accountId}</Typography.Text>
      </span>
      <Typography.Text strong type={negative ? 'danger' : 'success'} className="nowrap">
        {negative ? `− ${rupees(entry.amount.slice(1))}` : `+ ${rupees(entry.amount)}`}
      </Typography.Text>
    </div>
  );
}

/** One broken rule: what it means, the server's evidence and every posting it names with its entries. */
export function ViolationCard({ violation }: { violation: LedgerViolation }) {
  const { t } = useTranslation();
  const label = useRuleLabel();
  return (
    <Card
      size="small"
      className="ledger-violation"
      title={
        <Space wrap size={6}>
          <Tag color="red" className="ledger-rule-tag">
            {label.title(violation.rule)}
          </Tag>
          <Typography.Text type="secondary" code>
            {violation.rule}
          </Typography.Text>
        </Space>
      }
    >
      <Space direction="vertical" size={8} className="full-width">
        <Typography.Text>{label.description(violation.rule)}</Typography.Text>
        <div>
          <Typography.Text type="secondary">{t('ledger.evidence')}</Typography.Text>
          <pre className="json-block ledger-detail">{violation.detail}</pre>
        </div>
        <Table<Posting>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={violation.postings}
          tableLayout="fixed"
          columns={[
            {
              title: t('ledger.posting'),
              width: 150,
              render: (_, p) => (
                <Space direction="vertical" size={0} className="cell-stack">
                  <Typography.Text strong>#{p.id}</Typography.Text>
                  <span className="cell-wrap">{t(`postingTypes.${p.type}`, { defaultValue: p.type })}</span>
                  <Typography.Text type="secondary" className="cell-wrap">
                    {dateTime(p.createdAt)}
                  </Typography.Text>
                  <Typography.Text type="secondary" className="cell-wrap ledger-key">
                    {p.idempotencyKey}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t('ledger.entries'),
              render: (_, p) => (
                <Space direction="vertical" size={2} className="full-width">
                  {p.entries.map((entry) => (
                    <EntryLine key={`${entry.accountId}:${entry.amount}`} entry={entry} />
                  ))}
                </Space>
              ),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
