import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

/** One page of money that came back for deleted accounts; `handled: false` is the operators' queue. */
export function useUnclaimed(handled: boolean | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: ['unclaimed', handled, cursor],
    queryFn: () =>
      apiCall('adminUnclaimedList', {
        query: { limit: 20, cursor, ...(handled === undefined ? {} : { handled: handled ? 'true' : 'false' }) },
      }),
    placeholderData: keepPreviousData,
  });
}

/** How many wait for an operator (the menu's count); refreshed with the list. */
export function useUnclaimedOpen() {
  return useQuery({
    queryKey: ['unclaimed', 'open'],
    queryFn: () => apiCall('adminUnclaimedList', { query: { limit: 1, handled: 'false' } }),
    select: (page) => page.open,
    staleTime: 60_000,
  });
}
