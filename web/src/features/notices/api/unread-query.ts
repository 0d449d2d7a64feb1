import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

// The read and its cache entry, without TanStack Query's hooks: the tab bar makes this read on Home's
// first screen before the library has loaded (unread-first.ts) and hands it to the cache later.

export const unreadKey = ['notices', 'unread'] as const;

export function getUnread(signal?: AbortSignal) {
  return apiCall('noticeUnread', { signal });
}

export function unreadQueryOptions() {
  return queryOptions({ queryKey: unreadKey, queryFn: ({ signal }) => getUnread(signal), staleTime: 0 });
}
