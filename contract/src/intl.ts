import { LOCALE_INTL, type Locale } from './locales';

const tags = new Map<Locale, string>();

/**
 * The BCP 47 tag every app formats numbers, money, dates and names with (docs/design.md "Product rules"), with Latin
 * digits 0-9 in every locale (`-u-nu-latn`: Marathi would otherwise write Devanagari digits).
 * A runtime can claim a language yet lack its formatting data (Debian's Chromium has Punjabi names but
 * formats pa-IN dates as "2026 M11 22" and rupees without Indian grouping); then Indian English is used
 * for formatting, so a Punjabi reader still gets ₹3,50,000.00 and a readable date.
 */
export function intlTag(locale: Locale): string {
  let tag = tags.get(locale);
  if (!tag) {
    const wanted = LOCALE_INTL[locale];
    const month = new Intl.DateTimeFormat(wanted, { month: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 10, 1));
    tag = `${/^M\d+$/.test(month) ? 'en-IN' : wanted}-u-nu-latn`;
    tags.set(locale, tag);
  }
  return tag;
}

const numberTags = new Map<Locale, string>();

/**
 * The tag amounts and counts are formatted with: `intlTag`, except that every locale groups in lakhs and
 * crores (1,00,000), the app's one money format. ICU's Marathi and Chinese data group in thousands
 * (₹100,000.00); such a locale formats numbers as Indian English, whose digits, symbol and separators
 * are the same.
 */
export function numberTag(locale: Locale): string {
  let tag = numberTags.get(locale);
  if (!tag) {
    tag = intlTag(locale);
    // The currency pattern is the one that differs (Marathi's plain numbers do group in lakhs).
    const grouped = (t: string) =>
      new Intl.NumberFormat(t, { style: 'currency', currency: 'INR' }).format(100000).includes('1,00,000');
    if (!(grouped(tag) && new Intl.NumberFormat(tag).format(100000) === '1,00,000')) tag = 'en-IN-u-nu-latn';
    numberTags.set(locale, tag);
  }
  return tag;
}
