import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

/** One page of delivery attempts (codes and operator messages), optionally of one target, newest first. */
export function useDeliveries(target: string | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: ['otp-deliveries', target, cursor],
    queryFn: () => apiCall('adminOtpDeliveries', { query: { target, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}
