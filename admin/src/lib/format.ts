import { displayPhone, formatDate, formatMoney } from '@kamai/contract';
import { currentLocale } from '../i18n';

/** "₹1,20,000.50" from a rupee string (or paise), in the operator's language; "—" for none. */
export function rupees(amount: string | bigint | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  return formatMoney(amount, currentLocale());
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return formatDate(iso, currentLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A phone username as "+91 98765 43210"; an e-mail or another name unchanged. */
export function phoneNumber(username: string | null | undefined): string {
  return username ? displayPhone(username) : '—';
}
