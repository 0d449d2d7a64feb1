import type { Role } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export interface UserFilters {
  q?: string;
  role?: Role;
  frozen?: 'true' | 'false';
  joinedFrom?: string;
  joinedTo?: string;
}

/** One page of users under the filters. */
export function useUsers(filters: UserFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: ['users', filters, cursor],
    queryFn: () => apiCall('adminUserList', { query: { ...filters, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}

/** One user with recent movements and the invite tree. */
export function useUserDetail(id: number) {
  return useQuery({ queryKey: ['users', 'detail', id], queryFn: () => apiCall('adminUserDetail', { query: { id } }) });
}
