import { describe, expect, it } from 'vitest';
import { formatDate, localiseMonths } from './date-format';
import { LOCALES, type Locale } from './locales';

// 25 November 2026, 12:30 in India: the month every locale must name in its own language.
const AT = new Date(Date.UTC(2026, 10, 25, 7, 0));
const IST: Intl.DateTimeFormatOptions = { timeZone: 'Asia/Kolkata' };

const NOVEMBER: Record<Locale, { short: string; long: string }> = {
  en_US: { short: 'Nov', long: 'November' },
  gu_IN: { short: 'નવે', long: 'નવેમ્બર' },
  hi_IN: { short: 'नव॰', long: 'नवंबर' },
  mr_IN: { short: 'नोव्हें', long: 'नोव्हेंबर' },
  pa_IN: { short: 'ਨਵੰ', long: 'ਨਵੰਬਰ' },
  zh_CN: { short: '11月', long: '11月' },
};

describe('formatDate', () => {
  for (const locale of LOCALES) {
    it(`names the month in ${locale} and writes Latin digits`, () => {
      const medium = formatDate(AT, locale, { ...IST, dateStyle: 'medium' });
      expect(medium).toContain(NOVEMBER[locale].short);
      expect(medium).toContain('25');
      expect(medium).toContain('2026');
      expect(medium).not.toMatch(/[०-९૦-૯੦-੯]/);
      expect(medium).not.toMatch(/\bM11\b/);
      const long = formatDate(AT, locale, { ...IST, day: 'numeric', month: 'long' });
      expect(long).toContain(NOVEMBER[locale].long);
    });
  }

  it('puts the month names back where the runtime formats a language with Indian English', () => {
    const tag = 'en-IN-u-nu-latn';
    const short = new Intl.DateTimeFormat(tag, { ...IST, dateStyle: 'medium' }).formatToParts(AT);
    expect(localiseMonths(short, tag, 'pa_IN')).toBe('25 ਨਵੰ 2026');
    const long = new Intl.DateTimeFormat(tag, { ...IST, day: 'numeric', month: 'long' }).formatToParts(AT);
    expect(localiseMonths(long, tag, 'pa_IN')).toBe('25 ਨਵੰਬਰ');
    expect(localiseMonths(long, tag, 'hi_IN')).toBe('25 नवंबर');
    expect(localiseMonths(short, tag, 'en_US')).toBe('25 Nov 2026');
  });
});
