import type { AdminWithdrawalItem, RejectPreset } from '@kamai/contract';
import { apiCall, apiRequest, messageOf } from '../../../lib/api';
import { staleOf, staleText } from '../../../lib/stale';
import { useAction } from '../../../lib/use-action';

export interface Review {
  id: number;
  action: 'approve' | 'reject';
  reason?: string;
  preset?: RejectPreset;
}

/** Approves or rejects one request; answers the request as it now stands. */
export function useReviewWithdrawal(onReviewed?: (item: AdminWithdrawalItem) => void, onStale?: () => void) {
  return useAction((body: Review) => apiRequest('adminWithdrawReview', { body }), {
    invalidate: ['withdrawals'],
    onSuccess: (result) => onReviewed?.(result.data),
    onStale,
  });
}

/**
 * Approves the requests one after another (each is its own review on the server, audited alone);
 * a refusal of one does not stop the rest. Answers how many went through and why the others did not.
 */
export async function approveAll(rows: AdminWithdrawalItem[]): Promise<{ done: number; failures: string[] }> {
  let done = 0;
  const failures: string[] = [];
  for (const row of rows) {
    try {
      await apiCall('adminWithdrawReview', { body: { id: row.id, action: 'approve' } });
      done += 1;
    } catch (error) {
      const stale = staleOf(error);
      failures.push(`#${row.id}: ${stale ? staleText(stale) : messageOf(error)}`);
    }
  }
  return { done, failures };
}
