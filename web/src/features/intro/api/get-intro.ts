import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const introKey = ['intro', 'detail'] as const;

export function getIntro(signal?: AbortSignal) {
  return apiCall('introDetail', { signal });
}

export function introQueryOptions() {
  return queryOptions({ queryKey: introKey, queryFn: ({ signal }) => getIntro(signal) });
}

/** The introduction's facts (users, countries) and video, as the operator set them. */
export function useIntro() {
  return useQuery(introQueryOptions());
}
