import type { AccountCheckRefusal } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useLiveList } from '../../../lib/live';
import { useAction } from '../../../lib/use-action';

/** One page of the payout account numbers waiting for an operator, oldest first, kept live (lib/live.ts). */
export function useAccountChecks(cursor: string | undefined) {
  const live = useLiveList();
  return useQuery({
    queryKey: ['account-checks', cursor],
    queryFn: () => apiCall('adminAccountChecks', { query: { limit: 20, cursor } }),
    placeholderData: keepPreviousData,
    ...live,
  });
}

/** Approves a number, or refuses it with the reason the user reads in their language. */
export function useDecideAccountCheck(onDone?: () => void) {
  return useAction(
    (body: { id: number; action: 'approve' | 'refuse'; reason?: AccountCheckRefusal; note: string }) =>
      apiRequest('adminAccountCheckDecide', { body }),
    { invalidate: ['account-checks'], onSuccess: () => onDone?.(), onStale: () => onDone?.() },
  );
}
