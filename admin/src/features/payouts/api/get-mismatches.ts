import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';
import { useLiveList } from '../../../lib/live';

/** One page of payout mismatches; `resolved: false` is the operators' queue; kept live (lib/live.ts). */
export function useMismatches(resolved: boolean | undefined, cursor: string | undefined) {
  const live = useLiveList();
  return useQuery({
    queryKey: ['payout-mismatches', resolved, cursor],
    queryFn: () =>
      apiCall('adminPayoutMismatches', {
        query: { limit: 20, cursor, ...(resolved === undefined ? {} : { resolved: resolved ? 'true' : 'false' }) },
      }),
    placeholderData: keepPreviousData,
    ...live,
  });
}
