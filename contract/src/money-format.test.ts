import { describe, expect, it } from 'vitest';
import { intlTag } from './intl';
import { LOCALES } from './locales';
import { parseRupees } from './money';
import { formatMoney } from './money-format';

describe('formatMoney', () => {
  it('writes rupees with Indian grouping, two decimals and the sign in front', () => {
    expect(formatMoney('120000.50', 'en_US')).toBe('₹1,20,000.50');
    expect(formatMoney('5', 'en_US')).toBe('₹5.00');
    expect(formatMoney('-100.00', 'en_US')).toBe('\u2212₹100.00');
    expect(formatMoney('10.00', 'en_US', { sign: true })).toBe('+₹10.00');
    expect(formatMoney('-10.00', 'en_US', { sign: true })).toBe('\u2212₹10.00');
    expect(formatMoney('0.00', 'en_US', { sign: true })).toBe('₹0.00');
    expect(formatMoney('100000', 'en_US', { symbol: false })).toBe('1,00,000.00');
  });

  it('is one format in every locale: Indian grouping, Latin digits (Chinese too, whose ICU data groups in thousands)', () => {
    for (const locale of LOCALES) {
      expect(formatMoney('100000', locale), locale).toBe('₹1,00,000.00');
      expect(formatMoney('12345678.90', locale, { symbol: false }), locale).toBe('1,23,45,678.90');
    }
  });

  it('takes paise as bigint without a float in between, also beyond 2^53', () => {
    expect(formatMoney(12050n, 'en_US')).toBe('₹120.50');
    expect(formatMoney(-5n, 'en_US')).toBe('\u2212₹0.05');
    expect(formatMoney(123456789012345678n, 'en_US')).toBe('₹1,23,45,67,89,01,23,456.78');
    expect(formatMoney('1234567890123456.78', 'en_US')).toBe('₹1,23,45,67,89,01,23,456.78');
  });

  it('sums in paise the way the console adds a selection', () => {
    const total = ['0.10', '0.20', '1000000.05'].reduce((sum, a) => sum + (parseRupees(a) ?? 0n), 0n);
    expect(total).toBe(100000035n);
    expect(formatMoney(total, 'en_US')).toBe('₹10,00,000.35');
  });

  it('uses Latin digits 0-9 in every locale', () => {
    for (const locale of LOCALES) {
      const text = formatMoney('1234567.89', locale);
      expect(text, locale).toMatch(/^[^0-9]*12,34,567\.89[^0-9]*$|^[^0-9]*1,234,567\.89[^0-9]*$/);
      expect(new Date(Date.UTC(2026, 10, 22)).toLocaleDateString(intlTag(locale)), locale).toMatch(/\d/);
      expect(new Date(Date.UTC(2026, 10, 22)).toLocaleDateString(intlTag(locale)), locale).not.toMatch(/[०-९૦-૯੦-੯]/);
    }
  });
});

describe('lakh grouping', () => {
  it('groups in lakhs in every Indian locale, Marathi included', () => {
    for (const locale of ['en_US', 'gu_IN', 'hi_IN', 'mr_IN', 'pa_IN'] as const) {
      expect(formatMoney('100000', locale), locale).toBe('₹1,00,000.00');
      expect(formatMoney('10000000', locale, { symbol: false }), locale).toBe('1,00,00,000.00');
    }
  });
});
