import type { EditPasswordBody } from '@kamai/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function changePassword(body: EditPasswordBody) {
  return apiRequest('editPassword', { body });
}

/** The server keeps this session and ends the user's others. */
export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
