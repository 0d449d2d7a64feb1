import type { InboxKind } from '@kamai/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../../lib/api';
import { markReadInList } from './get-inbox';
import { unreadKey } from './get-unread';

export function getInboxItem(kind: InboxKind, id: number, signal?: AbortSignal) {
  return apiCall('noticeDetail', { query: { kind, id }, signal });
}

export function inboxItemQueryOptions(kind: InboxKind, id: number) {
  return queryOptions({
    queryKey: ['notices', 'detail', kind, id] as const,
    queryFn: ({ signal }) => getInboxItem(kind, id, signal),
  });
}

/** One notice or notification. The server marks it read when it is opened; the list and badge follow. */
export function useInboxItem(kind: InboxKind, id: number) {
  const queryClient = useQueryClient();
  const query = useQuery(inboxItemQueryOptions(kind, id));
  const opened = query.isSuccess;
  useEffect(() => {
    if (!opened) return;
    markReadInList(queryClient, kind, id);
    void queryClient.invalidateQueries({ queryKey: unreadKey });
  }, [opened, kind, id, queryClient]);
  return query;
}
