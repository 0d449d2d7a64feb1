import type { LinkedStatus } from '@kamai/contract';
import { apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

const invalidate = ['linked'];

/** Completes a pairing the sandbox provider is waiting on (by phone, with the code if one was shown). */
export function useCompleteLink() {
  return useAction(
    (body: { phone: string; code?: string }) =>
      apiRequest('adminWsComplete', { body: { phone: body.phone, code: body.code?.trim() || undefined } }),
    { invalidate },
  );
}

export function useSetLinkedStatus() {
  return useAction((body: { phone: string; status: LinkedStatus }) => apiRequest('adminWsStatus', { body }), {
    invalidate,
  });
}
