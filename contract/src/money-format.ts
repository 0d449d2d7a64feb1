import { numberTag } from './intl';
import type { Locale } from './locales';

/**
 * Money for people, in every app (web, console): the API's rupee string ("120.50", "-100.00") or
 * paise as bigint, in the locale's currency format with Indian grouping and Latin digits: ₹1,20,000.50.
 * The API's own wire form is `formatRupees(paise)` in money.ts; sums are added in bigint paise first.
 */
export interface MoneyFormat {
  /** "+₹10.00" for money in; money out is always "−₹100.00" (U+2212), with or without this. */
  sign?: boolean;
  /** false: the grouped number only ("1,00,000.00"), for texts that write ₹ themselves. */
  symbol?: boolean;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: Locale, symbol: boolean): Intl.NumberFormat {
  const key = `${locale}:${symbol}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(numberTag(locale), {
      numberingSystem: 'latn',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      ...(symbol ? { style: 'currency', currency: 'INR' } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

/** Paise → the exact decimal text ("-0.05"), without going through a float. */
function decimalOf(paise: bigint): string {
  const negative = paise < 0n;
  const abs = negative ? -paise : paise;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

export function formatMoney(
  amount: string | bigint,
  locale: Locale,
  { sign = false, symbol = true }: MoneyFormat = {},
) {
  const text = typeof amount === 'bigint' ? decimalOf(amount) : amount.trim();
  const negative = text.startsWith('-');
  const magnitude = text.replace(/^[-+]/, '');
  // A numeric string keeps every digit exactly; a Number would round large amounts.
  const body = formatter(locale, symbol).format(magnitude as Intl.StringNumericLiteral);
  const zero = /^0*(\.0*)?$/.test(magnitude);
  if (negative && !zero) return `\u2212${body}`;
  return sign && !zero ? `+${body}` : body;
}
