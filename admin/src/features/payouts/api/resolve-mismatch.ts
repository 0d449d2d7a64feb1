import type { MismatchResolution } from '@kamai/contract';
import { apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

/** Recovers the amount from the user's wallet or dismisses the mismatch, with the operator's reason. */
export function useResolveMismatch(onResolved?: () => void) {
  return useAction(
    (body: { id: number; action: MismatchResolution; reason: string }) =>
      apiRequest('adminPayoutMismatchResolve', { body }),
    { invalidate: ['payout-mismatches'], onSuccess: () => onResolved?.(), onStale: () => onResolved?.() },
  );
}
