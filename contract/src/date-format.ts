import { intlTag } from './intl';
import type { Locale } from './locales';
import { MONTH_NAMES } from './month-names';

const formatters = new Map<string, Intl.DateTimeFormat>();
const englishMonths = new Map<string, Map<string, number>>();

function formatterFor(tag: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${tag}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(tag, options);
    formatters.set(key, found);
  }
  return found;
}

/** The runtime's Indian-English month names (short and long) → the month's index, January 0. */
function monthIndex(tag: string): Map<string, number> {
  let index = englishMonths.get(tag);
  if (!index) {
    index = new Map();
    for (let month = 0; month < 12; month += 1) {
      const at = Date.UTC(2024, month, 15);
      for (const style of ['short', 'long'] as const) {
        index.set(new Intl.DateTimeFormat(tag, { month: style, timeZone: 'UTC' }).format(at), month);
      }
    }
    englishMonths.set(tag, index);
  }
  return index;
}

/**
 * `parts` of a date formatted with Indian English for `locale`'s reader: the month names go back into
 * the reader's language from MONTH_NAMES ("25 Nov 2026" → "25 ਨਵੰ 2026"); everything else is kept.
 */
export function localiseMonths(parts: Intl.DateTimeFormatPart[], tag: string, locale: Locale): string {
  const names = MONTH_NAMES[locale];
  return parts
    .map((part) => {
      if (part.type !== 'month' || !names) return part.value;
      const month = monthIndex(tag).get(part.value);
      if (month === undefined) return part.value;
      const long = new Intl.DateTimeFormat(tag, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, month, 15));
      return (part.value === long ? names.long : names.short)[month] ?? part.value;
    })
    .join('');
}

/**
 * Dates for people in every app (web, console), through one formatter: the locale's own style with
 * Latin digits (intlTag), and month names in the reader's language even where the runtime has none.
 */
export function formatDate(at: Date | string | number, locale: Locale, options: Intl.DateTimeFormatOptions): string {
  const tag = intlTag(locale);
  const formatter = formatterFor(tag, options);
  const date = at instanceof Date ? at : new Date(at);
  // intlTag fell back to Indian English: the runtime formats this language's dates without its names.
  if (locale !== 'en_US' && tag.startsWith('en-IN')) return localiseMonths(formatter.formatToParts(date), tag, locale);
  return formatter.format(date);
}
