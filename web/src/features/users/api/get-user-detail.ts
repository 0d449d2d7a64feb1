import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall, useToken } from '../../../lib/api';

export const userDetailKey = ['users', 'detail'] as const;

export function getUserDetail(signal?: AbortSignal) {
  return apiCall('userDetail', { signal });
}

export function userDetailQueryOptions() {
  return queryOptions({ queryKey: userDetailKey, queryFn: ({ signal }) => getUserDetail(signal) });
}

/** The logged-in user; idle while logged out. */
export function useUserDetail() {
  const token = useToken();
  return useQuery({ ...userDetailQueryOptions(), enabled: token !== null });
}
