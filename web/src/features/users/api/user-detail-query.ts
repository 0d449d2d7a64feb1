import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

// The read and its cache entry, without TanStack Query's hooks: Home's first paint makes this read
// before the library has loaded (app/routes/home-content.tsx) and hands it to the cache later.

export const userDetailKey = ['users', 'detail'] as const;

export function getUserDetail(signal?: AbortSignal) {
  return apiCall('userDetail', { signal });
}

export function userDetailQueryOptions() {
  return queryOptions({ queryKey: userDetailKey, queryFn: ({ signal }) => getUserDetail(signal) });
}
