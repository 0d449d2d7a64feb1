import type { ResetPassBody } from '@kamai/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function resetPassword(body: ResetPassBody) {
  return apiRequest('resetPassword', { body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
