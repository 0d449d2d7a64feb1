import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export function markIntroViewed() {
  return apiCall('introViewed');
}

/** Tells the server the caller has seen the introduction, which makes its task claimable. */
export function useMarkIntroViewed() {
  return useMutation({ mutationFn: markIntroViewed });
}
