import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall, useToken } from '../../../lib/api';

export const unreadKey = ['notices', 'unread'] as const;

export function getUnread(signal?: AbortSignal) {
  return apiCall('noticeUnread', { signal });
}

export function unreadQueryOptions() {
  return queryOptions({ queryKey: unreadKey, queryFn: ({ signal }) => getUnread(signal), staleTime: 0 });
}

/** How many notices and notifications the caller has not opened; idle while logged out. */
export function useUnread() {
  const token = useToken();
  return useQuery({ ...unreadQueryOptions(), enabled: token !== null });
}
