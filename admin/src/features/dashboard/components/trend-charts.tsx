import {
  BUSINESS_TIME_ZONE,
  type DashboardTrends,
  formatDate,
  formatMoney,
  intlTag,
  startOfBusinessDay,
} from '@kamai/contract';
import { Alert, Card, Col, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { currentLocale } from '../../../i18n';
import { messageOf } from '../../../lib/api';
import { useTrends } from '../api/get-trends';

type Point = Record<string, number | string>;
interface Series {
  key: string;
  label: string;
  color: string;
}

/** antd's palette, so the charts sit with the rest of the console. */
const COLORS = {
  blue: '#1677ff',
  green: '#52c41a',
  gold: '#faad14',
  red: '#ff4d4f',
  purple: '#722ed1',
  cyan: '#13c2c2',
};
/** Room on the right for the last day's label. */
const MARGIN = { top: 8, right: 24, bottom: 0, left: 0 };
const rupeeNumber = (amount: string) => Number(amount);

function points(days: DashboardTrends['days']): Point[] {
  const locale = currentLocale();
  return days.map((d) => ({
    label: formatDate(startOfBusinessDay(d.day), locale, {
      day: 'numeric',
      month: 'short',
      timeZone: BUSINESS_TIME_ZONE,
    }),
    signUps: d.signUps,
    requested: d.requested.count,
    approved: d.approved.count,
    paid: d.paid.count,
    failed: d.failed.count,
    requestedAmount: rupeeNumber(d.requested.amount),
    approvedAmount: rupeeNumber(d.approved.amount),
    paidAmount: rupeeNumber(d.paid.amount),
    failedAmount: rupeeNumber(d.failed.amount),
    rewards: rupeeNumber(d.rewards),
    rebates: rupeeNumber(d.rebates),
    mismatches: d.mismatches,
  }));
}

function Chart({
  title,
  data,
  series,
  kind,
  money = false,
}: {
  title: string;
  data: Point[];
  series: Series[];
  kind: 'bar' | 'line';
  money?: boolean;
}) {
  const locale = currentLocale();
  const format = (value: unknown) =>
    money
      ? formatMoney(Number(value).toFixed(2), locale)
      : new Intl.NumberFormat(intlTag(locale)).format(Number(value));
  const axisMoney = (value: number) => formatMoney(value.toFixed(2), locale).replace(/\.00$/, '');
  const common = (
    <>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
      <YAxis
        tick={{ fontSize: 11 }}
        allowDecimals={money}
        width={money ? 72 : 40}
        tickFormatter={money ? axisMoney : undefined}
      />
      <Tooltip formatter={format} />
      <Legend wrapperStyle={{ fontSize: 12 }} />
    </>
  );
  return (
    <Card title={title} size="small" className="trend-card">
      <ResponsiveContainer width="100%" height={220}>
        {kind === 'bar' ? (
          <BarChart data={data} margin={MARGIN}>
            {common}
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} stackId="day" isAnimationActive={false} />
            ))}
          </BarChart>
        ) : (
          <LineChart data={data} margin={MARGIN}>
            {common}
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stroke={s.color}
                dot={false}
                strokeWidth={2}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </ResponsiveContainer>
    </Card>
  );
}

/** The dashboard's 30-day trends by India's calendar day; its own chunk, so only this page loads recharts. */
export default function TrendCharts() {
  const { t } = useTranslation();
  const trends = useTrends();
  if (trends.isError) return <Alert type="error" title={messageOf(trends.error)} showIcon />;
  if (!trends.data) return <Skeleton active />;
  const data = points(trends.data.days);
  const states = (suffix: string): Series[] => [
    { key: `requested${suffix}`, label: t('dashboard.trends.requested'), color: COLORS.blue },
    { key: `approved${suffix}`, label: t('dashboard.trends.approved'), color: COLORS.gold },
    { key: `paid${suffix}`, label: t('dashboard.trends.paid'), color: COLORS.green },
    { key: `failed${suffix}`, label: t('dashboard.trends.failed'), color: COLORS.red },
  ];
  return (
    <section aria-label={t('dashboard.trends.title')}>
      <h2 className="trend-heading">{t('dashboard.trends.title')}</h2>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Chart
            title={t('dashboard.trends.signUps')}
            data={data}
            kind="bar"
            series={[{ key: 'signUps', label: t('dashboard.trends.signUps'), color: COLORS.blue }]}
          />
        </Col>
        <Col xs={24} lg={12}>
          <Chart
            title={t('dashboard.trends.credited')}
            data={data}
            kind="bar"
            money
            series={[
              { key: 'rewards', label: t('dashboard.trends.rewards'), color: COLORS.green },
              { key: 'rebates', label: t('dashboard.trends.rebates'), color: COLORS.purple },
            ]}
          />
        </Col>
        <Col xs={24} lg={12}>
          <Chart title={t('dashboard.trends.withdrawalCounts')} data={data} kind="line" series={states('')} />
        </Col>
        <Col xs={24} lg={12}>
          <Chart
            title={t('dashboard.trends.withdrawalAmounts')}
            data={data}
            kind="line"
            money
            series={states('Amount')}
          />
        </Col>
        <Col xs={24} lg={12}>
          <Chart
            title={t('dashboard.trends.mismatches')}
            data={data}
            kind="bar"
            series={[{ key: 'mismatches', label: t('dashboard.trends.mismatches'), color: COLORS.red }]}
          />
        </Col>
      </Row>
    </section>
  );
}
