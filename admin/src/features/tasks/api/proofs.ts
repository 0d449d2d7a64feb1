import type { RejectPreset, TaskProofState } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useLiveList } from '../../../lib/live';
import { useAction } from '../../../lib/use-action';

const invalidate = ['proofs'];

/** One page of submitted proofs; pending ones oldest first; kept live (lib/live.ts). */
export function useProofs(state: TaskProofState | undefined, cursor: string | undefined) {
  const live = useLiveList();
  return useQuery({
    queryKey: ['proofs', state, cursor],
    queryFn: () => apiCall('adminTaskProofList', { query: { state, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
    ...live,
  });
}

/** Approves (credits the reward once) or rejects (with the reason the user sees) a pending proof. */
export function useReviewProof(onSuccess: () => void) {
  return useAction(
    (body: { id: number; action: 'approve' | 'reject'; reason: string; preset?: RejectPreset }) =>
      apiRequest('adminTaskProofReview', { body }),
    { invalidate, onSuccess, onStale: onSuccess },
  );
}
