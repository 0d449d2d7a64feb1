import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

/** The dashboard's figures, refreshed every half minute while the page is open. */
export function useDashboard() {
  return useQuery({ queryKey: ['dashboard'], queryFn: () => apiCall('adminDashboard'), refetchInterval: 30_000 });
}
