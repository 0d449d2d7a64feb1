import type { RiskReasonKey, WithdrawalState } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';
import { useLiveList } from '../../../lib/live';

export interface WithdrawalFilters {
  state?: WithdrawalState;
  userId?: number;
  from?: string;
  to?: string;
  minRisk?: number;
  reason?: RiskReasonKey;
  sort?: 'queue' | 'risk';
}

/** One page of the review queue under the filters, kept live (lib/live.ts). */
export function useWithdrawals(filters: WithdrawalFilters, cursor: string | undefined) {
  const live = useLiveList();
  return useQuery({
    queryKey: ['withdrawals', filters, cursor],
    queryFn: () => apiCall('adminWithdrawList', { query: { ...filters, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
    ...live,
  });
}

/** A user's newest withdrawals (beside a request in review, and in the user's drawer). */
export function useUserWithdrawals(userId: number, limit = 10) {
  return useQuery({
    queryKey: ['withdrawals', 'user', userId, limit],
    queryFn: () => apiCall('adminWithdrawList', { query: { userId, limit } }),
  });
}
