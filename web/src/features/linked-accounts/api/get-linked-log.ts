import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const linkedLogKey = (phone: string) => ['linked', 'log', phone] as const;

export function getLinkedLog(phone: string, cursor: string | undefined, signal?: AbortSignal) {
  return apiCall('linkedLogList', { query: { phone, limit: PAGE_LIMIT_DEFAULT, cursor }, signal });
}

export function linkedLogQueryOptions(phone: string) {
  return infiniteQueryOptions({
    queryKey: linkedLogKey(phone),
    queryFn: ({ pageParam, signal }) => getLinkedLog(phone, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** One number's event log, newest first, a page at a time. */
export function useLinkedLog(phone: string) {
  return useInfiniteQuery(linkedLogQueryOptions(phone));
}
