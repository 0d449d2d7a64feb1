import { describe, expect, it } from 'vitest';
import { IFSC_BANKS, ifscParts } from './ifsc';

describe('ifscParts', () => {
  it('names the bank by the first four letters and the branch by the last six', () => {
    expect(ifscParts('SBIN0001234')).toEqual({ bank: 'State Bank of India', branchCode: '001234' });
    expect(ifscParts(' hdfc0000001 ')).toEqual({ bank: 'HDFC Bank', branchCode: '000001' });
    expect(ifscParts('ZZZZ0ABC123')).toEqual({ bank: undefined, branchCode: 'ABC123' });
  });

  it('says nothing of a code that is not an IFSC', () => {
    for (const bad of ['', 'SBIN', 'SBIN1001234', 'SBI00001234', 'SBIN00012345'])
      expect(ifscParts(bad), bad).toBe(undefined);
  });

  it('keys every bank by four capital letters', () => {
    for (const code of Object.keys(IFSC_BANKS)) expect(code).toMatch(/^[A-Z]{4}$/);
  });
});
