import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const linkedPageKey = ['linked', 'accounts'] as const;
/** While a re-bind waits for the messaging app, the list asks again this often. */
export const PENDING_POLL_MS = 3000;

export function getLinkedPage(cursor: string | undefined, signal?: AbortSignal) {
  return apiCall('linkedPage', { query: { limit: PAGE_LIMIT_DEFAULT, cursor }, signal });
}

export function linkedPageQueryOptions() {
  return infiniteQueryOptions({
    queryKey: linkedPageKey,
    queryFn: ({ pageParam, signal }) => getLinkedPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((item) => item.pairingPending)) ? PENDING_POLL_MS : false,
  });
}

/** The caller's linked numbers, newest first; polled while one of them is being re-bound. */
export function useLinkedPage() {
  return useInfiniteQuery(linkedPageQueryOptions());
}
