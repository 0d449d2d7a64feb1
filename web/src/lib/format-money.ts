import type { Locale } from '@kamai/contract';
import { intlTag } from './intl-tag';

const formatters = new Map<Locale, Intl.NumberFormat>();

/** A rupee string from the API ("120.50") in the locale's currency format (₹120.50, Indian grouping). */
export function formatRupees(amount: string, locale: Locale): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(intlTag(locale), { style: 'currency', currency: 'INR' });
    formatters.set(locale, formatter);
  }
  // A numeric string keeps every digit exactly; a Number would round large amounts.
  return formatter.format(amount as Intl.StringNumericLiteral);
}

/** A signed amount ("-100.00") with an explicit sign: "+₹10.00" for money in, "−₹100.00" for money out. */
export function formatSignedRupees(amount: string, locale: Locale): string {
  const negative = amount.trim().startsWith('-');
  const magnitude = formatRupees(amount.trim().replace(/^[-+]/, ''), locale);
  return `${negative ? '\u2212' : '+'}${magnitude}`;
}

const plainFormatters = new Map<Locale, Intl.NumberFormat>();

/** A rupee string as a grouped number without the sign ("1,00,000.00"), for texts that write ₹ themselves. */
export function formatAmount(amount: string, locale: Locale): string {
  let formatter = plainFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(intlTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    plainFormatters.set(locale, formatter);
  }
  return formatter.format(amount as Intl.StringNumericLiteral);
}
