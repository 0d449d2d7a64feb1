import type { DashboardTrends } from '@kamai/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import TrendCharts from './trend-charts';

/**
 * The dashboard's trends with real recharts over a query cache filled as `admin/dashboard/trends`
 * answers. happy-dom lays nothing out, so every element measures 0×0 and ResponsiveContainer would
 * draw nothing: the test gives the charts' containers a size instead.
 */
const zero = { count: 0, amount: '0.00' };
function trends(): DashboardTrends {
  const start = Date.parse('2026-10-28T00:00:00Z');
  return {
    timeZone: 'Asia/Kolkata',
    days: Array.from({ length: 30 }, (_, i) => ({
      day: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
      // Sign-ups on every other day, so the bar count says which days drew.
      signUps: i % 2 === 0 ? 3 : 0,
      requested: { count: 2, amount: '300.00' },
      approved: i === 29 ? { count: 1, amount: '150.00' } : zero,
      paid: zero,
      failed: zero,
      rewards: '1250.50',
      rebates: i < 10 ? '20.00' : '0.00',
      mismatches: i === 3 ? 1 : 0,
    })),
  };
}

function renderTrends() {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(['dashboard', 'trends'], trends());
  render(
    <QueryClientProvider client={client}>
      <TrendCharts />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: 'Last 30 days (India time)' });
}

/** Each chart's card, by its title. */
function card(title: string): HTMLElement {
  const head = screen.getByText(title, { selector: '.ant-card-head-title' });
  const found = head.closest('.ant-card');
  if (!(found instanceof HTMLElement)) throw new Error(`no card "${title}"`);
  return found;
}
/** The legend's entries; recharts orders them by name. */
const legend = (el: HTMLElement) =>
  [...el.querySelectorAll('.recharts-legend-item-text')].map((item) => item.textContent);

beforeAll(async () => {
  await initI18n();
  const measure = HTMLElement.prototype.getBoundingClientRect;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    if (this.classList.contains('recharts-responsive-container')) return new DOMRect(0, 0, 600, 220);
    return measure.call(this);
  });
});
afterEach(cleanup);
afterAll(() => {
  vi.restoreAllMocks();
});

describe('the dashboard trends', () => {
  it('draws the five charts under their titles, with each series in its legend', async () => {
    const section = renderTrends();
    expect(within(section).getByRole('heading', { name: 'Last 30 days (India time)' })).toBeTruthy();
    // Recharts draws its SVG once the container has been measured.
    await expect.poll(() => section.querySelectorAll('svg.recharts-surface').length).toBeGreaterThanOrEqual(5);
    expect(legend(card('Sign-ups'))).toEqual(['Sign-ups']);
    expect(legend(card('Rewards and rebates credited'))).toEqual(['Rebates', 'Task rewards']);
    expect(legend(card('Withdrawals (count)'))).toEqual(['Approved', 'Failed', 'Paid', 'Requested']);
    expect(legend(card('Withdrawals (₹)'))).toEqual(['Approved', 'Failed', 'Paid', 'Requested']);
    expect(legend(card('Payout mismatches'))).toEqual(['Payout mismatches']);
  });

  it('draws a bar for each day with a value and a line for each withdrawal state, over India-day labels', async () => {
    const section = renderTrends();
    await expect.poll(() => section.querySelectorAll('svg.recharts-surface').length).toBeGreaterThanOrEqual(5);
    const bars = (title: string) => card(title).querySelectorAll('.recharts-bar-rectangle path');
    // 15 days with sign-ups; rewards on 30 days and rebates on 10; one mismatch.
    expect(bars('Sign-ups')).toHaveLength(15);
    expect(bars('Rewards and rebates credited')).toHaveLength(40);
    expect(bars('Payout mismatches')).toHaveLength(1);
    for (const title of ['Withdrawals (count)', 'Withdrawals (₹)']) {
      const lines = [...card(title).querySelectorAll('path.recharts-line-curve')];
      expect(lines.map((line) => line.getAttribute('stroke'))).toEqual(['#1677ff', '#faad14', '#52c41a', '#ff4d4f']);
    }
    const ticks = [...card('Sign-ups').querySelectorAll('.recharts-xAxis-tick-labels text')].map(
      (tick) => tick.textContent,
    );
    expect(ticks).toHaveLength(30);
    expect(ticks[0]).toBe('28 Oct');
    expect(ticks.at(-1)).toBe('26 Nov');
    // The money chart's axis is in rupees, Latin digits, no paise.
    const money = [...card('Rewards and rebates credited').querySelectorAll('.recharts-yAxis-tick-labels text')].map(
      (tick) => tick.textContent,
    );
    expect(money).toContain('₹0');
    expect(money.every((text) => /^₹[\d,]+$/.test(text ?? ''))).toBe(true);
  });
});
