import type { WithdrawalItem } from '@kamai/contract';
import { withdrawalTimeline } from '@kamai/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n';
import { queryClient } from '../../../lib/query-client';
import { BrowserRouter } from '../../../lib/router';

/** A withdrawal row as /List4 shows it, from an item shaped as the server answers (timeline by the contract). */
function item(state: WithdrawalItem['state'], history: WithdrawalItem['history'], extra: Partial<WithdrawalItem> = {}) {
  const reference = extra.reference ?? null;
  const base: WithdrawalItem = {
    id: 41,
    amount: '150.00',
    fee: '10.00',
    payout: '140.00',
    state,
    stateLabelKey: `withdrawal_state_${state}`,
    reason: null,
    reference,
    account: { id: 1, accountType: 'upi', accountNoMasked: 'ra•••@okaxis', accountName: 'Ravi Kumar', ifsc: '' },
    createdAt: '2026-11-20T04:30:00.000Z',
    updatedAt: '2026-11-20T05:00:00.000Z',
    finishedAt: null,
    history,
    timeline: withdrawalTimeline({ state, reference, createdAt: '2026-11-20T04:30:00.000Z' }, history),
    returned: ['cancelled', 'rejected', 'failed', 'reversed'].includes(state) ? '150.00' : null,
  };
  return { ...base, ...extra, timeline: base.timeline, returned: base.returned };
}

const h = (state: WithdrawalItem['state'], at: string, reason: string | null = null) => ({ state, at, reason });

let WithdrawalRow: ComponentType<{ item: WithdrawalItem }>;
beforeAll(async () => {
  await initI18n();
  // After i18n is up: the row's modules add their texts to it when they load.
  WithdrawalRow = (await import('./withdrawal-row')).WithdrawalRow;
});
afterEach(() => cleanup());

function show(row: WithdrawalItem) {
  render(
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <WithdrawalRow item={row} />
      </BrowserRouter>
    </QueryClientProvider>,
  );
  return screen.getByRole('article');
}

describe('a withdrawal row', () => {
  it('shows a paid withdrawal step by step with each time and the UTR, and the fee it paid', () => {
    const row = show(
      item(
        'paid',
        [
          h('pending', '2026-11-20T04:30:00.000Z'),
          h('approved', '2026-11-20T05:00:00.000Z'),
          h('processing', '2026-11-20T05:00:01.000Z'),
          h('paid', '2026-11-20T05:20:00.000Z', 'UTR4471230098'),
        ],
        { reference: 'UTR4471230098' },
      ),
    );
    const timeline = within(row).getByRole('list', { name: 'Timeline of the withdrawal' });
    const steps = within(timeline).getAllByRole('listitem');
    expect(steps.map((step) => step.querySelector('.text-13')?.textContent)).toEqual([
      'Requested',
      'Under review',
      'Approved',
      'Sent to the bank',
      'Paid',
    ]);
    expect(steps.every((step) => step.querySelector('time'))).toBe(true);
    expect(within(timeline).getByText('Bank reference: UTR4471230098')).toBeTruthy();
    expect(within(row).getByText('Fee ₹10.00, you receive ₹140.00')).toBeTruthy();
  });

  it('reads a cancelled withdrawal as cancelled with the amount returned, never the fee and what arrives', () => {
    const row = show(
      item('cancelled', [h('pending', '2026-11-20T04:30:00.000Z'), h('cancelled', '2026-11-20T04:35:00.000Z')]),
    );
    expect(within(row).getByText('₹150.00 returned to your balance')).toBeTruthy();
    expect(within(row).queryByText(/you receive/)).toBeNull();
    const timeline = within(row).getByRole('list', { name: 'Timeline of the withdrawal' });
    expect(within(timeline).getAllByRole('listitem').at(-1)?.textContent).toMatch(/^Cancelled/);
  });

  it('marks where an open one is and mutes the steps to come', () => {
    const row = show(item('pending', [h('pending', '2026-11-20T04:30:00.000Z')]));
    const steps = within(row).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, 'step', null, null, null]);
    expect(steps.slice(2).every((step) => !step.querySelector('time'))).toBe(true);
  });
});
