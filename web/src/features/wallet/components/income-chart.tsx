import type { IncomeDaily } from '@kamai/contract';
import {
  BUSINESS_TIME_ZONE,
  EARNING_TYPES,
  type EarningType,
  formatDate,
  formatMoney,
  startOfBusinessDay,
} from '@kamai/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { type IncomeRange, useIncomeDaily } from '../api/get-income-daily';
import '../wallet.css';

/** One colour per kind of earning, stacked bottom to top in this order. */
const COLORS: Record<EarningType, string> = {
  task_reward: '#0e7c5a',
  rebate: '#f0a020',
  linked_income: '#3a7bd5',
  manual_credit: '#8e5bd0',
};
const WIDTH = 320;
const HEIGHT = 120;
const PAD_TOP = 6;

/** The API's rupee string ("12.50", always two decimals) → paise, exactly. */
const paiseOf = (rupees: string) => BigInt(rupees.replace('.', ''));

interface Day {
  day: string;
  sums: Record<EarningType, bigint>;
  total: bigint;
}

function daysOf(data: IncomeDaily): Day[] {
  return data.days.map((d) => {
    const sums = Object.fromEntries(EARNING_TYPES.map((t) => [t, paiseOf(d[t])])) as Record<EarningType, bigint>;
    return { day: d.day, sums, total: EARNING_TYPES.reduce((sum, t) => sum + sums[t], 0n) };
  });
}

/**
 * /List2's chart of the last 7 or 30 days' earnings by kind: stacked bars drawn as plain SVG, so the
 * income page carries no chart library (docs/decisions/web-first-route-weight.md).
 */
export function IncomeChart() {
  const { t } = useTranslation('wallet');
  const locale = currentLocale();
  const [range, setRange] = useState<IncomeRange>(7);
  const query = useIncomeDaily(range);
  const days = query.data ? daysOf(query.data) : [];
  const total = days.reduce((sum, d) => sum + d.total, 0n);
  const max = days.reduce((m, d) => (d.total > m ? d.total : m), 0n);
  const kinds = EARNING_TYPES.filter((kind) => days.some((d) => d.sums[kind] > 0n));
  const slot = WIDTH / Math.max(days.length, 1);
  const bar = Math.max(2, slot * 0.64);
  const label = (day: string) =>
    formatDate(startOfBusinessDay(day), locale, { day: 'numeric', month: 'short', timeZone: BUSINESS_TIME_ZONE });
  const scale = (paise: bigint) => (max === 0n ? 0 : (Number(paise) / Number(max)) * (HEIGHT - PAD_TOP));
  const summary = t('chart.summary', { amount: formatMoney(total, locale), count: range });

  return (
    <section className="card income-chart" aria-label={t('chart.title')}>
      <div className="income-chart-head flex space-between">
        <div className="income-chart-heading">
          <h2 className="income-chart-title semibold text-15">{t('chart.title')}</h2>
          <p className="income-chart-total muted text-12">{query.data ? summary : '\u00a0'}</p>
        </div>
        <fieldset className="segmented radius-10 income-range flex-none">
          <legend className="visually-hidden">{t('chart.range')}</legend>
          {([7, 30] as const).map((days) => (
            <label key={days} className="segmented-option muted text-14 text-center">
              <input
                type="radio"
                name="income-range"
                value={days}
                checked={days === range}
                onChange={() => setRange(days)}
              />
              {t('chart.days', { count: days })}
            </label>
          ))}
        </fieldset>
      </div>
      <svg
        className="income-chart-plot"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="income-chart-axis" />
        {days.map((d, i) => {
          let y = HEIGHT;
          return (
            <g key={d.day}>
              <title>{`${label(d.day)}: ${formatMoney(d.total, locale)}`}</title>
              {EARNING_TYPES.map((kind) => {
                const h = scale(d.sums[kind]);
                if (h <= 0) return null;
                y -= h;
                return (
                  <rect
                    key={kind}
                    x={i * slot + (slot - bar) / 2}
                    y={y}
                    width={bar}
                    height={h}
                    fill={COLORS[kind]}
                    rx={bar > 6 ? 2 : 0}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      {days.length > 0 && (
        <div className="income-chart-dates flex muted space-between" aria-hidden="true">
          <span>{label(days[0]?.day ?? '')}</span>
          <span>{label(days.at(-1)?.day ?? '')}</span>
        </div>
      )}
      {kinds.length > 0 ? (
        <ul className="plain-list income-chart-legend text-12 flex flex-wrap">
          {kinds.map((kind) => (
            <li key={kind} className="row">
              <span className="income-chart-swatch" style={{ background: COLORS[kind] }} />
              {t(`types.${kind}`)}
            </li>
          ))}
        </ul>
      ) : (
        query.data && <p className="income-chart-none muted text-12">{t('chart.none', { count: range })}</p>
      )}
    </section>
  );
}
