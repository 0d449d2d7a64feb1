import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

/** The last 30 days in India, per day; refreshed every five minutes while the page is open. */
export function useTrends() {
  return useQuery({
    queryKey: ['dashboard', 'trends'],
    queryFn: () => apiCall('adminDashboardTrends'),
    refetchInterval: 300_000,
  });
}
