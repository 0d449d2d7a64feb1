import type { LoginBody } from '@kamai/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, setToken } from '../../../lib/api';

export function login(body: LoginBody) {
  return apiRequest('login', { body });
}

/** Logs in and stores the session token; every cached query belonged to the previous session. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ data }) => {
      setToken(data.token);
      return queryClient.invalidateQueries();
    },
  });
}
