import type { AdminPageSetBody, PageSlug } from '@kamai/contract';
import { useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

export function usePage(slug: PageSlug) {
  return useQuery({ queryKey: ['pages', slug], queryFn: () => apiCall('adminPageGet', { query: { slug } }) });
}

export function useSavePage() {
  return useAction((body: AdminPageSetBody) => apiRequest('adminPageSet', { body }), { invalidate: ['pages'] });
}
