import { LOCALE_INTL, type Locale } from './locales';

const tags = new Map<Locale, string>();

/**
 * The BCP 47 tag every app formats numbers, money, dates and names with (DESIGN.md §5), with Latin
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
