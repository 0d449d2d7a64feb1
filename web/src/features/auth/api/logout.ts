import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, clearToken } from '../../../lib/api';

export function logout() {
  return apiRequest('logout');
}

/** Ends the session on the server, and locally even when the server cannot be reached. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      clearToken();
      queryClient.removeQueries();
    },
  });
}
