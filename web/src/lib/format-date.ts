import type { Locale } from '@kamai/contract';
import { formatDate, numberTag } from '@kamai/contract/constants';

/** An ISO time from the API as a local date and time in the locale's style ("12 Mar 2025, 4:05 pm"). */
export function formatDateTime(iso: string, locale: Locale): string {
  return formatDate(iso, locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** An ISO time from the API as a local time of day ("4:05 pm"). */
export function formatTime(iso: string, locale: Locale): string {
  return formatDate(iso, locale, { timeStyle: 'short' });
}

/** A count in the locale's digits and grouping (3,50,000 in Indian locales). */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(numberTag(locale)).format(value);
}
