import { BUSINESS_UTC_OFFSET_MINUTES } from './constants';

const DAY_MS = 86_400_000;
const OFFSET_MS = BUSINESS_UTC_OFFSET_MINUTES * 60_000;

/**
 * India's calendar day, computed one way for every workspace: the dashboard's "today", the daily
 * withdrawal limits and the date-only filters. India keeps no daylight saving, so a fixed offset is
 * exact and needs no time-zone data.
 */

/** Midnight in India of the day `at` falls on, as an instant (18:30 UTC of the day before). */
export function businessDayStart(at: Date): Date {
  const local = at.getTime() + OFFSET_MS;
  return new Date(local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - OFFSET_MS);
}

/** Midnight in India at the start of a `YYYY-MM-DD` day. */
export function startOfBusinessDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) - OFFSET_MS);
}

/** Midnight in India after a `YYYY-MM-DD` day: the exclusive end of a range that includes the day. */
export function endOfBusinessDay(day: string): Date {
  return new Date(startOfBusinessDay(day).getTime() + DAY_MS);
}

/** The `YYYY-MM-DD` name of India's calendar day that `at` falls on. */
export function businessDayOf(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The last `count` days in India up to and including the one `now` falls on, oldest first. */
export function lastBusinessDays(now: Date, count: number): string[] {
  const today = businessDayStart(now).getTime();
  return Array.from({ length: count }, (_, i) => businessDayOf(new Date(today - (count - 1 - i) * DAY_MS)));
}
