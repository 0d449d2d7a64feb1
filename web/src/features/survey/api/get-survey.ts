import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const surveyKey = ['survey', 'detail'] as const;

export function getSurvey(signal?: AbortSignal) {
  return apiCall('surveyDetail', { signal });
}

export function surveyQueryOptions() {
  return queryOptions({ queryKey: surveyKey, queryFn: ({ signal }) => getSurvey(signal) });
}

/** The caller's stored answers, if they have submitted the survey. */
export function useSurvey() {
  return useQuery(surveyQueryOptions());
}
