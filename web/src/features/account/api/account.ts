import type { PageSlug } from '@kamai/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { apiCall, apiRequest, clearToken } from '../../../lib/api';

/** Help, Terms or Privacy as the operator wrote it, in the reader's language (English where not translated). */
export function usePage(slug: PageSlug) {
  useTranslation(); // re-render, and so refetch, when the language changes
  const locale = currentLocale();
  return useQuery(
    queryOptions({
      queryKey: ['account', 'page', slug, locale],
      queryFn: ({ signal }) => apiCall('pageDetail', { query: { slug }, signal }),
    }),
  );
}

/** Deletes the account; the server ends every session, so this one ends here too. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => apiRequest('accountDelete', { body: { password } }),
    onSuccess: () => {
      clearToken();
      queryClient.removeQueries();
    },
  });
}
