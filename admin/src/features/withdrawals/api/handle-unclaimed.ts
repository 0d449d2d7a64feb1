import { apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

/** Marks unclaimed money handled with the operator's note of what was done. */
export function useHandleUnclaimed(onHandled?: () => void) {
  return useAction((body: { id: number; note: string }) => apiRequest('adminUnclaimedHandle', { body }), {
    invalidate: ['unclaimed'],
    onSuccess: () => onHandled?.(),
  });
}
