import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n';
import { hideForm, showForm } from '../../../lib/form-dialog';
import { queryClient } from '../../../lib/query-client';
// biome-ignore lint/style/noRestrictedImports: the feature's index loads its components, whose catalogue bundle needs i18n started (beforeAll) first
import { payoutAccountsKey } from '../../payout-accounts/api/payout-accounts';
import { withdrawLimitsKey } from '../api/withdrawals';

/**
 * The withdraw form in the app's dialog, over a query cache filled as the server answers (limits,
 * today's use, the balance, the payout accounts); the real request is in e2e/withdrawals.e2e.ts.
 */
const limits = {
  min: '100.00',
  max: '50000.00',
  dailyCount: 3,
  dailyTotal: '100000.00',
  todayCount: 1,
  todayTotal: '150.00',
  balance: '123456.50',
  frozen: false,
  fee: '0.00',
  payoutHours: 24,
  todayCancelled: 1,
  requestsLeft: 2,
  // As the server's withdrawal_limit_refusals answers for these limits and today's use.
  refusals: [
    { fromPaise: null, toPaise: '9999', key: 'withdrawal_below_minimum', vars: { min: { paise: '10000' } } },
    { fromPaise: '5000001', toPaise: null, key: 'withdrawal_above_maximum', vars: { max: { paise: '5000000' } } },
    {
      fromPaise: '9985001',
      toPaise: null,
      key: 'withdrawal_daily_total_reached',
      vars: { total: { paise: '10000000' }, left: { paise: '9985000' } },
    },
  ],
};
const account = (id: number, isDefault: 0 | 1, accountNoMasked: string) => ({
  id,
  accountType: 'upi',
  accountNoMasked,
  accountName: 'Ravi Kumar',
  ifsc: '',
  isDefault,
});

let FormDialog: ComponentType;
beforeAll(async () => {
  await initI18n();
  FormDialog = (await import('../../../app/form-dialog/form-dialog')).default;
});
afterEach(() => {
  act(() => hideForm());
  cleanup();
  queryClient.clear();
});

async function openWithdraw() {
  render(<FormDialog />);
  act(() => showForm('withdraw'));
  const dialog = await screen.findByRole('dialog', { name: 'Withdraw' });
  await within(dialog).findByLabelText('Amount', {}, { timeout: 30_000 });
  return dialog;
}

describe('the withdraw form', () => {
  it('shows the balance and limits in rupees, picks the default account, and "All" fills the most it may', async () => {
    queryClient.setQueryData(withdrawLimitsKey, limits);
    queryClient.setQueryData(payoutAccountsKey, [account(1, 0, 'ra•••@okaxis'), account(2, 1, 'ku•••@okicici')]);
    const dialog = await openWithdraw();
    expect(within(dialog).getByText('₹1,23,456.50')).toBeTruthy();
    // How many requests are left today, and the rule for cancelled ones.
    expect(within(dialog).getByText('Requests left today: 2 of 3')).toBeTruthy();
    expect(within(dialog).getByText(/A request you cancel does not count, up to 3 cancellations a day/)).toBeTruthy();
    const radios = within(dialog).getAllByRole('radio') as HTMLInputElement[];
    await expect.poll(() => radios.map((radio) => radio.checked)).toEqual([false, true]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'All' }));
    // The smaller of the balance (₹1,23,456.50) and the maximum (₹50,000).
    await expect.poll(() => (within(dialog).getByLabelText('Amount') as HTMLInputElement).value).toBe('50000.00');
  });

  it("warns with the server's own limit refusals before it asks, the money in the reader's format", async () => {
    queryClient.setQueryData(withdrawLimitsKey, limits);
    queryClient.setQueryData(payoutAccountsKey, [account(1, 1, 'ku•••@okicici')]);
    const dialog = await openWithdraw();
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '99.99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(/The minimum withdrawal is ₹100/)).toBeTruthy();
  });

  it('asks for a payout method first when there is none', async () => {
    queryClient.setQueryData(withdrawLimitsKey, limits);
    queryClient.setQueryData(payoutAccountsKey, []);
    const dialog = await openWithdraw();
    expect(within(dialog).getByText(/You have no payout method yet/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Add payout method' })).toBeTruthy();
    expect(within(dialog).queryAllByRole('radio')).toEqual([]);
  });
});
