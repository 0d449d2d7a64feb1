import type { LinkedStatus } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export interface LinkedFilters {
  status?: LinkedStatus;
  userId?: number;
  phone?: string;
}

/** One page of linked numbers under the filters. */
export function useLinkedAccounts(filters: LinkedFilters, cursor: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ['linked', filters, cursor],
    queryFn: () => apiCall('adminWsList', { query: { ...filters, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One page of a number's event log, newest first. */
export function useLinkedLog(phone: string, cursor: string | undefined) {
  return useQuery({
    queryKey: ['linked', 'log', phone, cursor],
    queryFn: () => apiCall('adminWsLog', { query: { phone, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}
