import { Alert, Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { dateTime } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { useReconciliation, useRunReconciliation } from '../api/reconciliation';

/** The counts shown for a run, in this order; the mismatch kinds follow when there are any. */
const COUNTS = ['fetched', 'matched', 'settled', 'others', 'mismatches', 'rateLimited'] as const;
const KINDS = ['unknown_payout', 'missing_payout', 'status', 'amount', 'fees', 'late_utr'] as const;
const STATUS_COLOR = { running: 'blue', done: 'green', failed: 'red' } as const;

/**
 * The daily reconciliation against RazorpayX's record: this installation's reference prefix, the last
 * run (its day, when, what it counted) and, for admins, a button that reconciles today now.
 */
export function ReconciliationPanel() {
  const { t } = useTranslation();
  const can = useCan();
  const status = useReconciliation();
  const run = useRunReconciliation();
  const data = status.data;
  const last = data?.last;
  return (
    <Card size="small" className="reconciliation-panel" title={t('mismatches.reconciliation.title')}>
      <Space direction="vertical" className="full-width">
        {data && !data.available && <Alert type="info" message={t('mismatches.reconciliation.unavailable')} />}
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('mismatches.reconciliation.prefix')}>
            <Typography.Text code copyable>
              {data?.referencePrefix ?? '—'}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('mismatches.reconciliation.lastRun')}>
            {last ? (
              <Space wrap size={4}>
                <span>{last.day}</span>
                <Tag color={STATUS_COLOR[last.status]}>{t(`mismatches.reconciliation.${last.status}`)}</Tag>
                <Typography.Text type="secondary">
                  {dateTime(last.finishedAt ?? last.startedAt)} ·{' '}
                  {last.startedBy === null
                    ? t('mismatches.reconciliation.byJob')
                    : t('mismatches.reconciliation.byOperator', { id: last.startedBy })}
                </Typography.Text>
              </Space>
            ) : (
              t('mismatches.reconciliation.never')
            )}
          </Descriptions.Item>
          {last && (
            <Descriptions.Item label={t('mismatches.reconciliation.counts')}>
              <Space wrap size={4}>
                {COUNTS.map((name) => (
                  <Tag key={name} color={name === 'mismatches' && (last.counts[name] ?? 0) > 0 ? 'red' : undefined}>
                    {t(`mismatches.reconciliation.count.${name}`)}: {last.counts[name] ?? 0}
                  </Tag>
                ))}
                {KINDS.filter((kind) => (last.counts[kind] ?? 0) > 0).map((kind) => (
                  <Tag key={kind} color="orange">
                    {t(`mismatches.kinds.${kind}`)}: {last.counts[kind]}
                  </Tag>
                ))}
              </Space>
            </Descriptions.Item>
          )}
          {last?.error && (
            <Descriptions.Item label={t('mismatches.reconciliation.error')}>{last.error}</Descriptions.Item>
          )}
        </Descriptions>
        {can('adminPayoutReconciliationRun') && (
          <Button
            type="primary"
            loading={run.isPending || last?.status === 'running'}
            disabled={!data?.available}
            onClick={() => void run.mutateAsync(undefined).catch(() => undefined)}
          >
            {t('mismatches.reconciliation.run')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
