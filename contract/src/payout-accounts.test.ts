import { describe, expect, it } from 'vitest';
import { formatMoneyVars } from './money';
import { payoutAccountBindBody, payoutAccountEditBody } from './payout-accounts';
import { adminWithdrawReviewBody, limitRefusalFor, withdrawAddBody } from './withdrawals';

/** Field → catalogue key of every problem the schema reports. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('payout account form', () => {
  it('defaults to a default UPI account and normalises it', () => {
    const parsed = payoutAccountBindBody.parse({
      accountNo: ' Asha.K@OKAxis ',
      accountName: ' Asha  Kumari ',
      ifsc: 'x',
    });
    expect(parsed).toEqual({
      accountType: 'upi',
      isDefault: 1,
      ifsc: '',
      accountNo: 'asha.k@okaxis',
      accountName: 'Asha Kumari',
    });
  });

  it('normalises a bank account: IFSC upper-cased, digits only', () => {
    const parsed = payoutAccountBindBody.parse({
      accountType: 'bank',
      isDefault: '0',
      ifsc: 'hdfc0ckub01',
      accountNo: '1234 5678 9012',
      accountName: "D'Souza (Jr.) A/C-2 Rao.",
    });
    expect(parsed).toMatchObject({ isDefault: 0, ifsc: 'HDFC0CKUB01', accountNo: '123456789012' });
  });

  it.each([
    [
      { accountType: 'bank' },
      { accountName: 'enter_recipient_name', accountNo: 'enter_account_number', ifsc: 'enter_ifsc' },
    ],
    [
      { accountType: 'bank', accountName: 'Al', accountNo: '12345678', ifsc: 'HDFC1234567' },
      { accountName: 'recipient_name_length', accountNo: 'invalid_account_number', ifsc: 'invalid_ifsc' },
    ],
    [
      { accountType: 'bank', accountName: 'Asha', accountNo: '1234567890123456789', ifsc: 'SBIN0001234' },
      { accountNo: 'invalid_account_number' },
    ],
    [{ accountName: 'Asha', accountNo: '' }, { accountNo: 'enter_upi_id' }],
    [{ accountName: 'Asha', accountNo: 'asha@ok@axis' }, { accountNo: 'invalid_upi_id' }],
    [{ accountName: 'Asha', accountNo: 'a@' }, { accountNo: 'invalid_upi_id' }],
    [{ accountName: 'आशा कुमारी', accountNo: 'asha@okaxis' }, { accountName: 'invalid_recipient_name' }],
    // RazorpayX's Create Contact rules: at most 50, no special character last but `.`, a letter or digit first.
    [{ accountName: 'A'.repeat(51), accountNo: 'asha@okaxis' }, { accountName: 'recipient_name_length' }],
    [{ accountName: 'Asha Kumari-', accountNo: 'asha@okaxis' }, { accountName: 'recipient_name_last' }],
    [{ accountName: "D'Souza (Jr)", accountNo: 'asha@okaxis' }, { accountName: 'recipient_name_last' }],
    [{ accountName: '(Asha) Kumari', accountNo: 'asha@okaxis' }, { accountName: 'recipient_name_first' }],
  ])('%j is refused with %j', (input, expected) => {
    expect(problems(payoutAccountBindBody.safeParse(input))).toEqual(expected);
  });

  it('lets an edit keep the stored number by leaving accountNo empty', () => {
    expect(payoutAccountEditBody.parse({ id: 3, accountName: 'Asha' })).toMatchObject({ id: 3, accountNo: '' });
    expect(problems(payoutAccountEditBody.safeParse({ id: 3, accountName: 'Asha', accountNo: 'nope' }))).toEqual({
      accountNo: 'invalid_upi_id',
    });
  });
});

describe('withdrawal rules', () => {
  it('asks for an amount, then for a valid one', () => {
    expect(problems(withdrawAddBody.safeParse({}))).toEqual({ amount: 'enter_withdrawal_amount' });
    expect(problems(withdrawAddBody.safeParse({ amount: ' ' }))).toEqual({ amount: 'enter_withdrawal_amount' });
    expect(problems(withdrawAddBody.safeParse({ amount: '10.001' }))).toEqual({ amount: 'invalid_amount' });
    expect(problems(withdrawAddBody.safeParse({ amount: 0 }))).toEqual({ amount: 'invalid_amount' });
    expect(withdrawAddBody.parse({ amount: '120.5' })).toEqual({ amount: 12_050n });
  });

  it('finds the first limit refusal whose range holds an amount, and formats its money', () => {
    const below = {
      fromPaise: null,
      toPaise: '9999',
      key: 'withdrawal_below_minimum',
      vars: { min: { paise: '10000' } },
    };
    const above = {
      fromPaise: '5000001',
      toPaise: null,
      key: 'withdrawal_above_maximum',
      vars: { max: { paise: '5000000' } },
    };
    const total = {
      fromPaise: '-49',
      toPaise: null,
      key: 'withdrawal_daily_total_reached',
      vars: { total: { paise: '10000000' }, left: { paise: '-50' } },
    };
    const refusals = [below, above, total];
    expect(limitRefusalFor(9_999n, refusals)).toBe(below);
    expect(limitRefusalFor(10_000n, [below, above])).toBeUndefined();
    expect(limitRefusalFor(5_000_000n, [below, above])).toBeUndefined();
    expect(limitRefusalFor(5_000_001n, refusals)).toBe(above);
    expect(limitRefusalFor(10_000n, refusals)).toBe(total);
    expect(formatMoneyVars(total.vars)).toEqual({ total: '100000.00', left: '-0.50' });
    expect(formatMoneyVars({ count: 3, min: { paise: '12050' } }, (p) => `₹${p}`)).toEqual({ count: 3, min: '₹12050' });
  });

  it('needs a reason to reject, not to approve', () => {
    expect(problems(adminWithdrawReviewBody.safeParse({ id: 1, action: 'reject', reason: '  ' }))).toEqual({
      reason: 'enter_reject_reason',
    });
    expect(adminWithdrawReviewBody.parse({ id: 1, action: 'approve' })).toEqual({
      id: 1,
      action: 'approve',
      reason: '',
    });
  });
});
