import { BUSINESS_TIME_ZONE, BUSINESS_UTC_OFFSET } from '@kamai/contract';

// en-CA formats a date as YYYY-MM-DD.
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The instant the business day (India's) containing `at` began: "today" on the dashboard. */
export function businessDayStart(at: Date): Date {
  return new Date(`${dayFormat.format(at)}T00:00:00${BUSINESS_UTC_OFFSET}`);
}
