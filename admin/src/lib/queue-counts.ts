import { useQuery } from '@tanstack/react-query';
import { apiCall } from './api';
import { LIST_REFRESH_MS } from './live';

/** The query key of the menu's pending counts: every action refreshes it (lib/use-action.ts). */
export const QUEUE_COUNTS_KEY = ['queue-counts'] as const;

/** While the tab is hidden the counts still come, more slowly: the tab's title tells the operator. */
const HIDDEN_REFRESH_MS = 60_000;

/**
 * What waits on each list of work the operator's role acts on (`admin/queue/counts`: one cheap read),
 * for the menu's badges and the tab's title (docs/decisions/console-queues-refresh.md).
 */
export function useQueueCounts() {
  return useQuery({
    queryKey: QUEUE_COUNTS_KEY,
    queryFn: () => apiCall('adminQueueCounts'),
    refetchInterval: () => (document.visibilityState === 'hidden' ? HIDDEN_REFRESH_MS : LIST_REFRESH_MS),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: true,
  });
}
