import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

/** One page of the sandbox sender's outbox, newest first. */
export function useOutbox(cursor: string | undefined) {
  return useQuery({
    queryKey: ['outbox', cursor],
    queryFn: () => apiCall('adminOtpOutbox', { query: { cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}
