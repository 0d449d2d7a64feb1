import type { AdminWithdrawalItem } from '@kamai/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n';
import { PayeeCheck } from './payee-check';

type Check = NonNullable<AdminWithdrawalItem['payeeCheck']>;

function item(check: Partial<Check>, reasons: string[] = []): AdminWithdrawalItem {
  return {
    account: { accountName: 'Suresh Kumar Yadav' },
    risk: { score: 40, reasons },
    payeeCheck: {
      state: 'verified',
      registeredName: 'SURESH KUMAR YADAV',
      reason: null,
      nameMatch: 100,
      nameMatchLow: false,
      otherNames: [],
      ...check,
    },
  } as AdminWithdrawalItem;
}

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

/** The payee check colours what the server judged and, on a mismatch, names what it compared. */
describe('the payee check', () => {
  it('colours the bank name by the server’s judgement, not by a number of its own', () => {
    render(<PayeeCheck item={item({ nameMatch: 75, nameMatchLow: true })} />);
    const bank = screen.getByText('Bank: SURESH KUMAR YADAV (75% match)');
    expect(bank.className).toContain('danger');
    cleanup();
    render(<PayeeCheck item={item({ nameMatch: 40, nameMatchLow: false })} />);
    expect(screen.getByText('Bank: SURESH KUMAR YADAV (40% match)').className).not.toContain('danger');
  });

  it('lists the other accounts’ names with their match when the mismatch reason fired', () => {
    const others: Check['otherNames'] = [
      { accountName: 'Ravi Patel', registeredName: 'RAVI PATEL', nameMatch: 0, nameMatchLow: true },
      { accountName: 'S K Yadav', registeredName: null, nameMatch: 81, nameMatchLow: false },
    ];
    render(<PayeeCheck item={item({ nameMatchLow: true, otherNames: others }, ['risk_bank_name_mismatch'])} />);
    expect(screen.getByText("Compared with the user's other accounts:")).toBeTruthy();
    expect(screen.getByText('Typed: Ravi Patel · Bank: RAVI PATEL (0% match)').className).toContain('danger');
    expect(screen.getByText('Typed: S K Yadav, no bank name (81% match)').className).not.toContain('danger');
  });

  it('leaves the other accounts out while the names agree', () => {
    const others: Check['otherNames'] = [
      { accountName: 'Suresh Yadav', registeredName: 'SURESH YADAV', nameMatch: 80, nameMatchLow: false },
    ];
    render(<PayeeCheck item={item({ otherNames: others })} />);
    expect(screen.queryByText(/other accounts/)).toBeNull();
    expect(screen.queryByText(/SURESH YADAV/)).toBeNull();
  });
});
