import type { UnclaimedMoneyItem, UserDetail } from '@kamai/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTable } from '../../../components/data-table';
import { initI18n } from '../../../i18n';
import { MeContext } from '../../../lib/roles';
import UnclaimedPage from './unclaimed-page';

/** The unclaimed-money queue as a component, from a query cache filled the way the server answers. */
function item(id: number, handled = false): UnclaimedMoneyItem {
  return {
    id,
    userId: 40 + id,
    username: `deleted-${40 + id}`,
    withdrawalId: 900 + id,
    accountNo: '••••5678',
    gateway: 'razorpayx',
    payoutId: `pout_${id}`,
    reference: '700000000001',
    kind: 'reversal',
    amount: '400.00',
    reason: 'Beneficiary bank rejected the credit',
    postingId: 70 + id,
    createdAt: '2026-11-20T10:00:00.000Z',
    handled,
    handledBy: handled ? 1 : null,
    handledAt: handled ? '2026-11-21T10:00:00.000Z' : null,
    note: handled ? 'returned after an ID check' : null,
  };
}

function renderQueue(role: UserDetail['role'], items: UnclaimedMoneyItem[]) {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(['unclaimed', false, undefined], { items, nextCursor: null, open: items.length });
  return render(
    <QueryClientProvider client={client}>
      <AntApp>
        <MeContext.Provider value={{ id: 1, username: 'ops@example.com', role } as UserDetail}>
          <MemoryRouter initialEntries={['/unclaimed']}>
            <UnclaimedPage />
          </MemoryRouter>
        </MeContext.Provider>
      </AntApp>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n();
  // A wide page shows antd's Table, a chunk of its own: loaded before the tests look at rows.
  await loadTable();
});
afterEach(cleanup);

describe('the unclaimed money queue', () => {
  it('shows who, how much and which payout; an admin marks it handled', () => {
    renderQueue('admin', [item(2), item(1)]);
    const rows = [...document.querySelectorAll<HTMLElement>('tr[data-row-key]')];
    expect(rows.map((row) => row.getAttribute('data-row-key'))).toEqual(['2', '1']);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText('deleted-42')).toBeTruthy();
    expect(first.getByText('₹400.00')).toBeTruthy();
    expect(first.getByText('pout_2')).toBeTruthy();
    expect(first.getByText('Payout reversed by the bank')).toBeTruthy();
    expect(first.getByRole('button', { name: 'Mark handled' })).toBeTruthy();
  });

  it('offers a reviewer no action', () => {
    renderQueue('reviewer', [item(3)]);
    expect(screen.queryByRole('button', { name: 'Mark handled' })).toBeNull();
    expect(screen.getByText('deleted-43')).toBeTruthy();
  });
});
