import { useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

const key = ['payout-reconciliation'];

/** The installation's reference prefix and the last reconciliation; asked again every 3 s while one runs. */
export function useReconciliation() {
  return useQuery({
    queryKey: key,
    queryFn: () => apiCall('adminPayoutReconciliation'),
    refetchInterval: (query) => (query.state.data?.last?.status === 'running' ? 3000 : false),
  });
}

/** Queues today's reconciliation; the panel and the mismatches refresh. */
export function useRunReconciliation() {
  return useAction(() => apiRequest('adminPayoutReconciliationRun', { body: {} }), { invalidate: key });
}
