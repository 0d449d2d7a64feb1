import type { WithdrawAddBody } from '@kamai/contract';
import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';

export const withdrawalsKey = ['withdrawals', 'list'] as const;
export const withdrawLimitsKey = ['withdrawals', 'limits'] as const;
/** While a withdrawal is on its way (approved, processing), the list asks again this often. */
export const OPEN_POLL_MS = 5000;

export function withdrawalsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: withdrawalsKey,
    queryFn: ({ pageParam, signal }) =>
      apiCall('withdrawList', { query: { limit: PAGE_LIMIT_DEFAULT, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.items.some((item) => item.state === 'approved' || item.state === 'processing'),
      )
        ? OPEN_POLL_MS
        : false,
  });
}

/** The caller's withdrawals, newest first, a page at a time. */
export function useWithdrawals() {
  return useInfiniteQuery(withdrawalsQueryOptions());
}

/** Limits, what today has used, and the balance: always fresh when the form opens. */
export function useWithdrawLimits() {
  return useQuery(
    queryOptions({
      queryKey: withdrawLimitsKey,
      queryFn: ({ signal }) => apiCall('withdrawLimits', { signal }),
      staleTime: 0,
    }),
  );
}

/**
 * Requests a withdrawal under an idempotency key, then refreshes every figure the hold changes (the payout
 * accounts too: their checks show on the withdrawal).
 */
export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: WithdrawAddBody; key: string }) =>
      apiRequest('withdrawAdd', { body, headers: { 'Idempotency-Key': key } }),
    onSuccess: () =>
      Promise.all(
        [['withdrawals'], ['payoutAccounts'], ['users'], ['wallet'], ['tasks']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** Cancels a withdrawal under review; the hold returns to the balance, so every figure refreshes. */
export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('withdrawCancel', { body: { id } }),
    onSuccess: () =>
      Promise.all(
        [['withdrawals'], ['payoutAccounts'], ['users'], ['wallet'], ['notices']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
