import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function logoutLinked(phone: string) {
  return apiRequest('linkedLogout', { body: { phone } });
}

/** Logs a number out of the provider: it stays in the list as To Login, with its log. */
export function useLogoutLinked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logoutLinked,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['linked'] }),
  });
}
