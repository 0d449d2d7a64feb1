import type { RegisterBody } from '@kamai/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { setToken } from '../../../lib/auth-token';
import { forgetInvite } from '../../../lib/pending-invite';

export function register(body: RegisterBody) {
  return apiRequest('register', { body });
}

/** Registers and logs in with the returned token (the server finishes task 2 itself). */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ data }) => {
      setToken(data.token);
      forgetInvite();
      return queryClient.invalidateQueries();
    },
  });
}
