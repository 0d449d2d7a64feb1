import type { InboxItem } from '@kamai/contract';
import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import { type InfiniteData, infiniteQueryOptions, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const inboxKey = ['notices', 'inbox'] as const;

export function getInbox(cursor: string | undefined, signal?: AbortSignal) {
  return apiCall('noticeList', { query: { limit: PAGE_LIMIT_DEFAULT, cursor }, signal });
}

export function inboxQueryOptions() {
  return infiniteQueryOptions({
    queryKey: inboxKey,
    queryFn: ({ pageParam, signal }) => getInbox(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Published notices and the caller's own notifications in one list: pinned first, then newest. */
export function useInbox() {
  return useInfiniteQuery(inboxQueryOptions());
}

type InboxPages = InfiniteData<{ items: InboxItem[]; nextCursor: string | null }>;

/** Shows an item as read in the cached list at once, without fetching the list again. */
export function markReadInList(queryClient: QueryClient, kind: InboxItem['kind'], id: number): void {
  queryClient.setQueryData<InboxPages>(inboxKey, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.kind === kind && item.id === id ? { ...item, read: true } : item)),
          })),
        }
      : data,
  );
}
