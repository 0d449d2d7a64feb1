import { Alert, Card, Col, Row, Skeleton, Statistic, Tag } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { rupees } from '../../../lib/format';
import { useDashboard } from '../api/get-dashboard';

// The charts and their library load after today's figures, in their own chunk.
const TrendCharts = lazy(() => import('../components/trend-charts'));

export default function DashboardPage() {
  const { t } = useTranslation();
  const figures = useDashboard();
  if (figures.isError) return <Alert type="error" title={messageOf(figures.error)} showIcon />;
  if (!figures.data) return <Skeleton active />;
  const d = figures.data;
  const cards = [
    { title: t('dashboard.users'), value: String(d.users.total) },
    { title: t('dashboard.newToday'), value: String(d.users.newToday) },
    { title: t('dashboard.wallets'), value: rupees(d.balances.wallets) },
    { title: t('dashboard.holds'), value: rupees(d.balances.holds) },
    {
      title: t('dashboard.pending'),
      value: d.withdrawals.pending ? `${d.withdrawals.pending.count} · ${rupees(d.withdrawals.pending.amount)}` : '—',
    },
    {
      title: t('dashboard.paidToday'),
      value: `${d.withdrawals.paidToday.count} · ${rupees(d.withdrawals.paidToday.amount)}`,
    },
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((card) => (
        <Col xs={24} sm={12} lg={8} key={card.title}>
          <Card>
            <Statistic title={card.title} value={card.value} />
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Card title={t('dashboard.ledger')}>
          {d.ledger.ok ? (
            <Tag color="green">{t('dashboard.ledgerOk')}</Tag>
          ) : (
            <Tag color="red">{t('dashboard.ledgerProblems', { count: d.ledger.problemCount })}</Tag>
          )}
        </Card>
      </Col>
      <Col span={24}>
        <Suspense fallback={<Skeleton active />}>
          <TrendCharts />
        </Suspense>
      </Col>
    </Row>
  );
}
