import type { IncomeDaily, Locale } from '@kamai/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLocale, initI18n } from '../../../i18n';
import { incomeDailyKey } from '../api/get-income-daily';
import { IncomeChart } from './income-chart';

/**
 * The income chart over a query cache filled as `user/balance/daily` answers: one bar group per day,
 * one rectangle per kind earned that day (in the kind's colour), a legend of the kinds present only.
 */
const COLOR = { task_reward: '#0e7c5a', rebate: '#f0a020', linked_income: '#3a7bd5', manual_credit: '#8e5bd0' };
type Kinds = Partial<Omit<IncomeDaily['days'][number], 'day'>>;

function daysFrom(first: string, kinds: Kinds[]): IncomeDaily {
  const start = Date.parse(`${first}T00:00:00Z`);
  return {
    timeZone: 'Asia/Kolkata',
    days: kinds.map((k, i) => ({
      day: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
      task_reward: k.task_reward ?? '0.00',
      rebate: k.rebate ?? '0.00',
      linked_income: k.linked_income ?? '0.00',
      manual_credit: k.manual_credit ?? '0.00',
    })),
  };
}

/** 20–26 Nov: rewards on three days, rebates on two, the 25th the biggest; ₹12,363.75 in all. */
const week = daysFrom('2026-11-20', [
  { task_reward: '10.00' },
  {},
  { task_reward: '5.50', rebate: '2.00' },
  {},
  { rebate: '1.25' },
  { task_reward: '12345.00' },
  {},
]);
/** 28 Oct – 26 Nov: ₹1 of linked-account income every day, ₹100 of earnings on the first; ₹130 in all. */
const month = daysFrom(
  '2026-10-28',
  Array.from({ length: 30 }, (_, i) =>
    i === 0 ? { linked_income: '1.00', manual_credit: '100.00' } : { linked_income: '1.00' },
  ),
);

function renderChart(locale: Locale) {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(incomeDailyKey(7, locale), week);
  client.setQueryData(incomeDailyKey(30, locale), month);
  render(
    <QueryClientProvider client={client}>
      <IncomeChart />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: locale === 'en_US' ? 'Earnings' : /./ });
}

const groups = (chart: HTMLElement) => [...chart.querySelectorAll('svg g')];
const barsOf = (chart: HTMLElement, kind: keyof typeof COLOR) =>
  [...chart.querySelectorAll('svg rect')].filter((rect) => rect.getAttribute('fill') === COLOR[kind]);
const legend = (chart: HTMLElement) =>
  [...chart.querySelectorAll('.income-chart-legend li')].map((li) => li.textContent);

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);
afterAll(async () => {
  await changeLocale('en_US');
});

describe('the income chart', () => {
  it('draws 7 days, one bar per kind earned each day, the tallest day full height, and a legend of those kinds', () => {
    const chart = renderChart('en_US');
    expect(groups(chart)).toHaveLength(7);
    expect(groups(chart).map((g) => g.querySelector('title')?.textContent)).toEqual([
      '20 Nov: ₹10.00',
      '21 Nov: ₹0.00',
      '22 Nov: ₹7.50',
      '23 Nov: ₹0.00',
      '24 Nov: ₹1.25',
      '25 Nov: ₹12,345.00',
      '26 Nov: ₹0.00',
    ]);
    // Rects per day, by kind: days with nothing have none.
    expect(groups(chart).map((g) => [...g.querySelectorAll('rect')].map((r) => r.getAttribute('fill')))).toEqual([
      [COLOR.task_reward],
      [],
      [COLOR.task_reward, COLOR.rebate],
      [],
      [COLOR.rebate],
      [COLOR.task_reward],
      [],
    ]);
    expect(barsOf(chart, 'task_reward')).toHaveLength(3);
    expect(barsOf(chart, 'rebate')).toHaveLength(2);
    expect(barsOf(chart, 'linked_income')).toHaveLength(0);
    expect(barsOf(chart, 'manual_credit')).toHaveLength(0);
    // The 25th is the scale: 120 high less 6 of top padding.
    const tallest = groups(chart)[5]?.querySelector('rect');
    expect(Number(tallest?.getAttribute('height'))).toBeCloseTo(114);
    expect(Number(tallest?.getAttribute('y'))).toBeCloseTo(6);
    expect(legend(chart)).toEqual(['Task reward', 'Referral rebate']);
    expect(within(chart).getByText('₹12,363.75 in the last 7 days')).toBeTruthy();
    expect(chart.querySelector('svg')?.getAttribute('aria-label')).toBe('₹12,363.75 in the last 7 days');
  });

  it('switches to 30 days: thirty groups, their kinds, and the legend and total follow', async () => {
    const chart = renderChart('en_US');
    await act(async () => {
      fireEvent.click(within(chart).getByRole('radio', { name: '30 days' }));
    });
    expect((within(chart).getByRole('radio', { name: '30 days' }) as HTMLInputElement).checked).toBe(true);
    expect(groups(chart)).toHaveLength(30);
    expect(barsOf(chart, 'linked_income')).toHaveLength(30);
    expect(barsOf(chart, 'manual_credit')).toHaveLength(1);
    expect(barsOf(chart, 'task_reward')).toHaveLength(0);
    expect(groups(chart)[0]?.querySelector('title')?.textContent).toBe('28 Oct: ₹101.00');
    expect(groups(chart)[29]?.querySelector('title')?.textContent).toBe('26 Nov: ₹1.00');
    expect(legend(chart)).toEqual(['Online account income', 'Bonus credit']);
    expect(within(chart).getByText('₹130.00 in the last 30 days')).toBeTruthy();
  });

  // Marathi's own default is Devanagari digits (२६ नोव्हें, ₹१२,३६३.७५); the app keeps Latin ones.
  it('keeps Latin digits for amounts and dates in Marathi', async () => {
    await changeLocale('mr_IN');
    const chart = renderChart('mr_IN');
    const texts = [
      ...groups(chart).map((g) => g.querySelector('title')?.textContent ?? ''),
      chart.querySelector('.income-chart-total')?.textContent ?? '',
      ...legend(chart),
    ];
    expect(groups(chart)).toHaveLength(7);
    expect(texts.join('\n')).not.toMatch(/[\u0966-\u096f]/);
    expect(chart.querySelector('.income-chart-total')?.textContent).toContain('₹12,363.75');
    expect(groups(chart)[5]?.querySelector('title')?.textContent).toMatch(/^25 .+: ₹12,345\.00$/);
    // The legend is in Marathi, not the English fallback.
    expect(legend(chart)).toHaveLength(2);
    expect(legend(chart)).not.toContain('Task reward');
  });
});
