import { LEDGER_VIOLATIONS_SHOWN, type LedgerCheck } from '@kamai/contract';
import { Alert, Button, Card, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { useLedgerCheck } from '../api/get-ledger-check';
import { useRuleLabel, ViolationCard } from '../components/violation-card';

type Problem = LedgerCheck['problems'][number];
type RuleCount = LedgerCheck['rules'][number];

/**
 * The ledger check: the invariants (every posting balances, balances match their entries) and the
 * business rules of money, each with its count; every violation with the postings it names.
 */
export default function LedgerPage() {
  const { t } = useTranslation();
  const check = useLedgerCheck();
  const label = useRuleLabel();
  if (check.isError) return <Alert type="error" title={messageOf(check.error)} showIcon />;
  if (!check.data) return <Skeleton active />;
  const d = check.data;
  const violations = d.rules.reduce((sum, r) => sum + r.violations, 0);
  return (
    <Space direction="vertical" size={16} className="full-width">
      <Card
        title={t('ledger.title')}
        extra={
          <Button onClick={() => void check.refetch()} loading={check.isFetching}>
            {t('ledger.refresh')}
          </Button>
        }
      >
        <Space direction="vertical" size={12} className="full-width">
          <Typography.Paragraph type="secondary">{t('ledger.intro')}</Typography.Paragraph>
          {d.ok ? (
            <Alert type="success" showIcon title={t('ledger.clean')} />
          ) : (
            <Alert type="error" showIcon title={t('ledger.broken', { violations, problems: d.problems.length })} />
          )}
          <Table<RuleCount>
            size="small"
            rowKey="rule"
            pagination={false}
            dataSource={d.rules}
            tableLayout="fixed"
            columns={[
              {
                title: t('ledger.rule'),
                render: (_, r) => (
                  <Space direction="vertical" size={0} className="cell-stack">
                    <Typography.Text strong>{label.title(r.rule)}</Typography.Text>
                    <Typography.Text type="secondary" className="cell-wrap">
                      {label.description(r.rule)}
                    </Typography.Text>
                  </Space>
                ),
              },
              {
                title: t('ledger.violationsCount'),
                width: 120,
                render: (_, r) =>
                  r.violations === 0 ? (
                    <Tag color="green">{t('ledger.holds')}</Tag>
                  ) : (
                    <Tag color="red">{r.violations}</Tag>
                  ),
              },
            ]}
          />
        </Space>
      </Card>
      {d.violations.length > 0 && (
        <Card title={t('ledger.violationsTitle')}>
          <Space direction="vertical" size={12} className="full-width">
            {violations > d.violations.length && (
              <Typography.Text type="secondary">
                {t('ledger.shownOf', { shown: LEDGER_VIOLATIONS_SHOWN, count: violations })}
              </Typography.Text>
            )}
            {d.violations.map((v) => (
              <ViolationCard key={`${v.rule}:${v.postingIds.join(',')}:${v.detail}`} violation={v} />
            ))}
          </Space>
        </Card>
      )}
      {d.problems.length > 0 && (
        <Card title={t('ledger.problemsTitle')}>
          <Table<Problem>
            size="small"
            rowKey={(p) => `${p.rule}:${p.postingId}:${p.accountId}`}
            pagination={false}
            dataSource={d.problems}
            tableLayout="fixed"
            columns={[
              {
                title: t('ledger.rule'),
                render: (_, p) => (
                  <Space direction="vertical" size={0} className="cell-stack">
                    <Typography.Text strong>{label.title(p.rule)}</Typography.Text>
                    <Typography.Text type="secondary" className="cell-wrap">
                      {p.detail}
                    </Typography.Text>
                  </Space>
                ),
              },
              {
                title: t('ledger.where'),
                width: 130,
                render: (_, p) => (
                  <Space direction="vertical" size={0}>
                    {p.postingId !== null && (
                      <span className="nowrap">{t('ledger.postingNo', { id: p.postingId })}</span>
                    )}
                    {p.accountId !== null && (
                      <span className="nowrap">{t('ledger.accountNo', { id: p.accountId })}</span>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
