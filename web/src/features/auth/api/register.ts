import type { RegisterBody } from '@kamai/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, setToken } from '../../../lib/api';
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
