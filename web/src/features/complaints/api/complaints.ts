import type { ComplaintAddBody } from '@kamai/contract';
import { PAGE_LIMIT_DEFAULT } from '@kamai/contract/constants';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';

export const complaintsKey = ['complaints'] as const;

/** The caller's complaints, newest first, a page at a time. */
export function useComplaints() {
  return useInfiniteQuery({
    queryKey: [...complaintsKey, 'list'],
    queryFn: ({ pageParam, signal }) =>
      apiCall('complaintList', { query: { limit: PAGE_LIMIT_DEFAULT, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** One complaint with its history; fresh each time it is opened (an operator may have answered). */
export function useComplaint(id: number) {
  return useQuery({
    queryKey: [...complaintsKey, 'detail', id],
    queryFn: ({ signal }) => apiCall('complaintDetail', { query: { id }, signal }),
    enabled: Number.isSafeInteger(id) && id > 0,
    staleTime: 0,
  });
}

/** Raises a complaint in the app's language; the list shows it at once. */
export function useRaiseComplaint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ComplaintAddBody) => apiRequest('complaintAdd', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: complaintsKey }),
  });
}
