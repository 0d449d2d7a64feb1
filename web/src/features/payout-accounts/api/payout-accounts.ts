import type { PayoutAccountBindBody, PayoutAccountEditBody } from '@kamai/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';

export const payoutAccountsKey = ['payoutAccounts', 'list'] as const;

export function payoutAccountsQueryOptions() {
  return queryOptions({
    queryKey: payoutAccountsKey,
    queryFn: ({ signal }) => apiCall('wdaccountList', { signal }).then((data) => data.items),
  });
}

/** The caller's payout accounts (at most 10, one page), default first. */
export function usePayoutAccounts() {
  return useQuery(payoutAccountsQueryOptions());
}

/** Withdrawals name accounts too, so every change refreshes both features' queries. */
function useInvalidatePayoutAccounts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([['payoutAccounts'], ['withdrawals']].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function useBindPayoutAccount() {
  const invalidate = useInvalidatePayoutAccounts();
  return useMutation({
    mutationFn: (body: PayoutAccountBindBody) => apiRequest('wdaccountBind', { body }),
    onSuccess: invalidate,
  });
}

export function useEditPayoutAccount() {
  const invalidate = useInvalidatePayoutAccounts();
  return useMutation({
    mutationFn: (body: PayoutAccountEditBody) => apiRequest('wdaccountEdit', { body }),
    onSuccess: invalidate,
  });
}

export function useDeletePayoutAccount() {
  const invalidate = useInvalidatePayoutAccounts();
  return useMutation({
    mutationFn: (id: number) => apiRequest('wdaccountDelete', { body: { id } }),
    onSuccess: invalidate,
  });
}
