import type { Locale } from '@kamai/contract';
import { intlTag } from '@kamai/contract/constants';

const formatters = new Map<Locale, Intl.DateTimeFormat>();

/** An ISO time from the API as a local date and time in the locale's style ("12 Mar 2025, 4:05 pm"). */
export function formatDateTime(iso: string, locale: Locale): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(intlTag(locale), { dateStyle: 'medium', timeStyle: 'short' });
    formatters.set(locale, formatter);
  }
  return formatter.format(new Date(iso));
}

const timeFormatters = new Map<Locale, Intl.DateTimeFormat>();

/** An ISO time from the API as a local time of day ("4:05 pm"). */
export function formatTime(iso: string, locale: Locale): string {
  let formatter = timeFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(intlTag(locale), { timeStyle: 'short' });
    timeFormatters.set(locale, formatter);
  }
  return formatter.format(new Date(iso));
}

/** A count in the locale's digits and grouping (3,50,000 in Indian locales). */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(intlTag(locale)).format(value);
}
