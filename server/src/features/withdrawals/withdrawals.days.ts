import { WITHDRAWAL_DAY_UTC_OFFSET_MINUTES } from '@kamai/contract';

const DAY_MS = 86_400_000;
const OFFSET_MS = WITHDRAWAL_DAY_UTC_OFFSET_MINUTES * 60_000;

/** Midnight in India (UTC+05:30) of the day `at` falls on, as an instant. */
export function dayStart(at: Date): Date {
  const local = at.getTime() + OFFSET_MS;
  return new Date(local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - OFFSET_MS);
}

/** Midnight in India at the start of a `YYYY-MM-DD` day. */
export function startOfDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) - OFFSET_MS);
}

/** Midnight in India after a `YYYY-MM-DD` day (the exclusive end of an inclusive range). */
export function endOfDay(day: string): Date {
  return new Date(startOfDay(day).getTime() + DAY_MS);
}
