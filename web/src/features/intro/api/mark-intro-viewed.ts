import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export function reportIntroProgress(watchedSeconds: number) {
  return apiCall('introProgress', { body: { watchedSeconds } });
}

/**
 * Reports the seconds of video played so far; the server believes no more than the wall clock allows
 * and makes the introduction's task claimable at 80 %.
 */
export function useReportIntroProgress() {
  return useMutation({ mutationFn: reportIntroProgress });
}
