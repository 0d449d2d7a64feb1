import type { Locale } from '@kamai/contract';
import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { apiCall } from '../../../lib/api';

/** Task titles in the rows come in the request's language, so each language has its own cache entry. */
export const balanceListKey = (locale: Locale) => ['wallet', 'balances', locale] as const;

export function getBalanceList(cursor: string | undefined, signal?: AbortSignal) {
  return apiCall('balanceList', { query: { limit: PAGE_LIMIT_DEFAULT, cursor }, signal });
}

export function balanceListQueryOptions(locale: Locale) {
  return infiniteQueryOptions({
    queryKey: balanceListKey(locale),
    queryFn: ({ pageParam, signal }) => getBalanceList(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The caller's wallet movements, newest first, a page at a time. */
export function useBalanceList() {
  useTranslation();
  return useInfiniteQuery(balanceListQueryOptions(currentLocale()));
}
