import type { Locale } from '@kamai/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { currentLocale } from '../../../i18n';
import { apiCall } from '../../../lib/api';

export type IncomeRange = 7 | 30;

export const incomeDailyKey = (days: IncomeRange, locale: Locale) => ['wallet', 'daily', days, locale] as const;

export function incomeDailyQueryOptions(days: IncomeRange, locale: Locale) {
  return queryOptions({
    queryKey: incomeDailyKey(days, locale),
    queryFn: ({ signal }) => apiCall('incomeDaily', { query: { days }, signal }),
  });
}

/** The caller's earnings per day in India over the last `days` days, by kind. */
export function useIncomeDaily(days: IncomeRange) {
  return useQuery(incomeDailyQueryOptions(days, currentLocale()));
}
