import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export interface AuditFilters {
  action?: string;
  target?: string;
  actorId?: number;
  from?: string;
  to?: string;
}

/** One page of the audit log under the filters, newest first. */
export function useAuditLog(filters: AuditFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: ['audit', filters, cursor],
    queryFn: () => apiCall('adminAuditList', { query: { ...filters, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}
