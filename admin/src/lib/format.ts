import { LOCALE_INTL } from '@kamai/contract';
import { currentLocale } from '../i18n';

/** "₹1,20,000.50" from a rupee string. */
export function rupees(amount: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = '00'] = amount.replace('-', '').split('.');
  const grouped = new Intl.NumberFormat(LOCALE_INTL[currentLocale()]).format(BigInt(whole));
  return `${negative ? '−' : ''}₹${grouped}.${fraction.padEnd(2, '0')}`;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(LOCALE_INTL[currentLocale()], { dateStyle: 'medium', timeStyle: 'short' });
}
