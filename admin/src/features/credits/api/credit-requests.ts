import type { CreditRequestState } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

/** One page of the credits held for a second admin (or decided), newest first. */
export function useCreditRequests(state: CreditRequestState | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: ['credit-requests', state, cursor],
    queryFn: () => apiCall('adminCreditRequestList', { query: { state, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}

export interface CreditDecision {
  id: number;
  action: 'approve' | 'reject';
  reason?: string;
}

/** A second admin's decision: approve posts the credit, reject closes it with a reason. */
export function useDecideCredit(onDone?: () => void) {
  return useAction((body: CreditDecision) => apiRequest('adminCreditReview', { body }), {
    invalidate: ['credit-requests'],
    onSuccess: () => onDone?.(),
  });
}
