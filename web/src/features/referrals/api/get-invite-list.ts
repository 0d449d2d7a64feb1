import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const inviteListKey = ['referrals', 'invites'] as const;

export function getInviteList(cursor: string | undefined, signal?: AbortSignal) {
  return apiCall('inviteList', { query: { limit: PAGE_LIMIT_DEFAULT, cursor }, signal });
}

export function inviteListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: inviteListKey,
    queryFn: ({ pageParam, signal }) => getInviteList(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The caller's invitees, newest first, a page at a time; every page carries the totals. */
export function useInviteList() {
  return useInfiniteQuery(inviteListQueryOptions());
}
