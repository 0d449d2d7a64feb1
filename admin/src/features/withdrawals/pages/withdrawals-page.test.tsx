import type { AdminWithdrawalItem, UserDetail } from '@kamai/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTable } from '../../../components/data-table';
import { initI18n } from '../../../i18n';
import { MeContext } from '../../../lib/roles';
import WithdrawalsPage from './withdrawals-page';

/**
 * The console's review queue as a component: the list comes from a query cache filled the way the
 * server answers, so the test sees what the page makes of it (no server: the e2e test reviews for real).
 */
function item(id: number, amount: string, state: AdminWithdrawalItem['state'] = 'pending'): AdminWithdrawalItem {
  return {
    id,
    amount,
    fee: '0.00',
    payout: amount,
    state,
    stateLabelKey: `withdrawal_state_${state}`,
    reason: null,
    reference: null,
    account: {
      id: 1,
      accountType: 'upi',
      accountNoMasked: 'ra•••@okaxis',
      accountNo: 'ravi@okaxis',
      accountName: 'Ravi',
      ifsc: '',
    },
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: null,
    risk: { score: 0, reasons: [] },
    approvals: { required: 1, first: null },
    payeeCheck: null,
    userId: 7,
    username: '919876543210',
    reviewerId: null,
    reviewedAt: null,
    history: [],
    timeline: [],
    returned: null,
  };
}

function renderQueue(url: string, items: AdminWithdrawalItem[], filters: object) {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(['withdrawals', filters, undefined], { items, nextCursor: null });
  client.setQueryData(['withdrawals', 'user', 7, 10], { items, nextCursor: null });
  return render(
    <QueryClientProvider client={client}>
      <AntApp>
        <MeContext.Provider value={{ id: 1, username: 'reviewer@example.com', role: 'reviewer' } as UserDetail}>
          <MemoryRouter initialEntries={[url]}>
            <WithdrawalsPage />
          </MemoryRouter>
        </MeContext.Provider>
      </AntApp>
    </QueryClientProvider>,
  );
}

/** happy-dom's viewport, which its matchMedia follows (lib/wide.ts). */
function setViewport(width: number, height: number) {
  const dom = (window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } })
    .happyDOM;
  dom.setViewport({ width, height });
}

beforeAll(async () => {
  await initI18n();
  // A wide page shows antd's Table, a chunk of its own: loaded before the tests look at rows.
  await loadTable();
});
afterEach(cleanup);

describe('the review queue', () => {
  it('opens on the filters of its link and lists the requests with their amounts', async () => {
    renderQueue('/withdrawals?state=pending&userId=7', [item(11, '150.00'), item(12, '120.50')], {
      userId: 7,
      state: 'pending',
    });
    // The filters are a chunk of their own, fetched with the page on a wide screen.
    expect(((await screen.findByLabelText('User ID')) as HTMLInputElement).value).toBe('7');
    const rows = document.querySelectorAll('tr[data-row-key]');
    expect([...rows].map((row) => row.getAttribute('data-row-key'))).toEqual(['11', '12']);
    expect(within(rows[0] as HTMLElement).getByText('₹150.00')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getAllByRole('button', { name: 'Approve' })).toHaveLength(1);
  });

  it('adds the selected amounts in paise for the bulk approval, and offers only pending rows', async () => {
    renderQueue(
      '/withdrawals?state=all',
      [item(21, '0.10'), item(22, '0.20'), item(23, '100000.05'), item(24, '50.00', 'paid')],
      {},
    );
    const boxes = () => [...document.querySelectorAll<HTMLInputElement>('tr[data-row-key] input[type=checkbox]')];
    expect(boxes().map((box) => box.disabled)).toEqual([false, false, false, true]);
    for (const box of boxes().slice(0, 3)) fireEvent.click(box);
    const bulk = await screen.findByRole('button', { name: 'Approve selected (3)' });
    await act(async () => {
      fireEvent.click(bulk);
    });
    // The total of the checked pending rows, exact to the paisa, in the operator's format.
    expect(
      await screen.findByText('3 payouts will be sent: ₹1,00,000.35 to the banks (₹1,00,000.35 asked, ₹0.00 in fees).'),
    ).toBeTruthy();
  });

  it('refuses a rejection without a reason in the catalogue’s words', async () => {
    renderQueue('/withdrawals', [item(31, '130.00')], { state: 'pending' });
    const row = document.querySelector('tr[data-row-key="31"]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    });
    expect(await within(dialog).findByText('Enter the reason for the rejection')).toBeTruthy();
  });

  it('marks the request whose history shows, and moves the mark to the row clicked', () => {
    renderQueue('/withdrawals', [item(41, '10.00'), item(42, '20.00')], { state: 'pending' });
    const row = (id: number) => document.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement;
    expect(row(41).className).toContain('review-row-current');
    expect(row(41).getAttribute('aria-selected')).toBe('true');
    expect(row(42).className).not.toContain('review-row-current');
    fireEvent.click(within(row(42)).getByText('₹20.00'));
    expect(row(42).className).toContain('review-row-current');
    expect(row(42).getAttribute('aria-selected')).toBe('true');
    expect(row(41).className).not.toContain('review-row-current');
  });

  it('fits the queue without a sideways scroll: request and state stacked, the risk column takes the rest', () => {
    renderQueue('/withdrawals', [item(51, '10.00')], { state: 'pending' });
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent).filter(Boolean);
    expect(headers).toEqual(['ID', 'Request', 'Risk', 'State', 'Actions']);
    // No fixed columns and no scroll width: nothing sits behind a horizontal scroll.
    expect(document.querySelector('.ant-table-cell-fix-end')).toBeNull();
    expect(document.querySelector('.ant-table-ping-right, .ant-table-fixed-column')).toBeNull();
  });

  it('shows gross, fee and net, and says what approving does: pays at once, or a first approval that waits for another reviewer', async () => {
    const small = { ...item(61, '200.00'), fee: '10.00', payout: '190.00' };
    const large = {
      ...item(62, '40000.00'),
      fee: '10.00',
      payout: '39990.00',
      approvals: { required: 2, first: null },
    };
    renderQueue('/withdrawals', [small, large], { state: 'pending' });
    const row = (id: number) => document.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement;
    expect(within(row(61)).getByText('Fee ₹10.00 · to bank ₹190.00')).toBeTruthy();

    fireEvent.click(within(row(61)).getByRole('button', { name: 'Approve' }));
    const one = await screen.findByRole('tooltip');
    expect(within(one).getByText('Asked ₹200.00 · fee ₹10.00 · to the bank ₹190.00.')).toBeTruthy();
    expect(within(one).getByText('Approving sends ₹190.00 to the bank at once.')).toBeTruthy();
    fireEvent.click(within(one).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(within(row(62)).getByRole('button', { name: 'Approve' }));
    const popups = await screen.findAllByRole('tooltip');
    const two = popups[popups.length - 1] as HTMLElement;
    expect(within(two).getByText(/^This is the first of two approvals: nothing is paid yet\./)).toBeTruthy();
    expect(within(two).getByText(/anyone but you and the requester/)).toBeTruthy();
    // Above the four-eyes threshold nothing says the payout goes at once.
    expect(within(two).queryByText(/at once/)).toBeNull();
    expect(within(two).getByRole('button', { name: 'Give first approval' })).toBeTruthy();
  });

  it('disables Approve, with the reason, for the reviewer who gave the first approval and on their own request', () => {
    // The signed-in reviewer is #1 (renderQueue's MeContext).
    const mine = {
      ...item(71, '40000.00'),
      approvals: { required: 2, first: { reviewerId: 1, at: '2026-11-20T10:05:00.000Z' } },
    };
    const theirs = {
      ...item(72, '40000.00'),
      approvals: { required: 2, first: { reviewerId: 9, at: '2026-11-20T10:05:00.000Z' } },
    };
    const own = { ...item(73, '150.00'), userId: 1 };
    renderQueue('/withdrawals', [mine, theirs, own], { state: 'pending' });
    const row = (id: number) => document.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement;
    const approve = (id: number) => within(row(id)).getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    expect(approve(71).disabled).toBe(true);
    expect(
      within(row(71)).getByText(
        'You gave the first approval. Another reviewer or admin, not the requester, must give the second.',
      ),
    ).toBeTruthy();
    expect(approve(72).disabled).toBe(false);
    expect(approve(73).disabled).toBe(true);
    expect(within(row(73)).getByText('Your own withdrawal: another reviewer or admin must review it.')).toBeTruthy();
    const boxes = [...document.querySelectorAll<HTMLInputElement>('tr[data-row-key] input[type=checkbox]')];
    expect(boxes.map((box) => box.disabled)).toEqual([true, false, true]);
  });
  it('on a phone keeps the filters behind a button that counts those set, and fetches them when opened', async () => {
    // Below 768 px the rows are cards (lib/wide.ts asks matchMedia, which follows the viewport).
    setViewport(390, 800);
    try {
      renderQueue('/withdrawals?state=all&userId=7', [item(81, '150.00')], { userId: 7 });
      expect(screen.getAllByTestId('withdrawal-card')).toHaveLength(1);
      const toggle = screen.getByRole('button', { name: 'Filters (2)' });
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      expect(screen.queryByLabelText('User ID')).toBeNull();
      fireEvent.click(toggle);
      expect(((await screen.findByLabelText('User ID')) as HTMLInputElement).value).toBe('7');
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      expect(screen.getByRole('button', { name: 'Approve selected (0)' })).toBeTruthy();
    } finally {
      setViewport(1024, 768);
    }
  });
});
