import { Alert, Card, Col, Row, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
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
  const { pending, paidToday } = d.withdrawals;
  const violations = d.ledger.violationCount;
  const cards = [
    { title: t('dashboard.users'), value: String(d.users.total) },
    { title: t('dashboard.newToday'), value: String(d.users.newToday) },
    { title: t('dashboard.wallets'), value: rupees(d.balances.wallets), note: t('dashboard.walletsNote') },
    { title: t('dashboard.holds'), value: rupees(d.balances.holds) },
    {
      title: t('dashboard.pending'),
      value: pending ? `${pending.count} · ${rupees(pending.amount)}` : '—',
      note: pending ? t('dashboard.feeNet', { fee: rupees(pending.fee), net: rupees(pending.net) }) : undefined,
    },
    {
      // What reached the banks: the net of the withdrawals paid today that are still paid.
      title: t('dashboard.paidToBanks'),
      value: `${paidToday.count} · ${rupees(paidToday.net)}`,
      note: t('dashboard.paidGross', { amount: rupees(paidToday.amount), fee: rupees(paidToday.fee) }),
    },
    {
      title: t('dashboard.complaints'),
      value: String(d.complaints.open),
      note: t('dashboard.complaintsOverdue', { count: d.complaints.overdue }),
    },
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((card) => (
        <Col xs={24} sm={12} lg={8} key={card.title}>
          <Card>
            <Statistic title={card.title} value={card.value} />
            {card.note && (
              <Typography.Text type="secondary" className="figure-note">
                {card.note}
              </Typography.Text>
            )}
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Card title={t('dashboard.ledger')} extra={<Link to="/ledger">{t('dashboard.ledgerOpen')}</Link>}>
          {d.ledger.ok ? (
            <Tag color="green">{t('dashboard.ledgerClean')}</Tag>
          ) : (
            <Space wrap size={8}>
              {d.ledger.problemCount > 0 && (
                <Tag color="red">{t('dashboard.ledgerProblems', { count: d.ledger.problemCount })}</Tag>
              )}
              {violations > 0 && <Tag color="red">{t('dashboard.ledgerViolations', { count: violations })}</Tag>}
            </Space>
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
