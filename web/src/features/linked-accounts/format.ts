import type { Locale } from '@kamai/contract';
import { PAIRING_CODE_LENGTH, PHONE_COUNTRY_CODE } from '@kamai/contract/constants';
import { formatCount } from '../../lib/format-date';

/** The 8-character code as two groups of 4, `*` where no character has arrived yet (spec section 9). */
export function codeGroups(code: string | undefined): [string, string] {
  const half = PAIRING_CODE_LENGTH / 2;
  const padded = (code ?? '').slice(0, PAIRING_CODE_LENGTH).padEnd(PAIRING_CODE_LENGTH, '*');
  return [padded.slice(0, half), padded.slice(half)];
}

/** "919876543210" → "+91 98765 43210". */
export function formatLinkedPhone(phone: string): string {
  const national = phone.startsWith(PHONE_COUNTRY_CODE) ? phone.slice(PHONE_COUNTRY_CODE.length) : phone;
  return `+${PHONE_COUNTRY_CODE} ${national.slice(0, 5)} ${national.slice(5)}`;
}

export interface DurationParts {
  unit: 'hours' | 'minutes' | 'seconds';
  values: { hours: string; minutes: string; seconds: string };
}

/** Splits seconds for display: "2 h 05 min" past an hour, "12 min" past a minute, else "40 s". */
export function durationParts(totalSeconds: number, locale: Locale): DurationParts {
  const total = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const unit = hours > 0 ? 'hours' : minutes > 0 ? 'minutes' : 'seconds';
  const two = (n: number) =>
    n < 10 && hours > 0 ? `${formatCount(0, locale)}${formatCount(n, locale)}` : formatCount(n, locale);
  return {
    unit,
    values: { hours: formatCount(hours, locale), minutes: two(minutes), seconds: formatCount(seconds, locale) },
  };
}

/** "m:ss" for a short countdown. */
export function formatClock(totalSeconds: number): string {
  const total = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
