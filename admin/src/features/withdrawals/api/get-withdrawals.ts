import { RISK_REASON_KEYS, type RiskReasonKey, WITHDRAWAL_STATES, type WithdrawalState } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';
import { useLiveList } from '../../../lib/live';
import type { UrlFilters } from '../../../lib/url-filters';

export const RISK_REASONS = Object.values(RISK_REASON_KEYS);

/** The queue's filters in the URL. `state=all` lists every state; no state at all opens on the pending queue. */
export const QUEUE_FILTERS = {
  state: [...WITHDRAWAL_STATES, 'all'],
  userId: 'id',
  from: 'text',
  to: 'text',
  minRisk: 'id',
  reason: RISK_REASONS,
  sort: ['queue', 'risk'],
} as const;
export type QueueUrl = UrlFilters<typeof QUEUE_FILTERS>;

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
