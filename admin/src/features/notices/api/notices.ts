import type { NOTICE_STATES, RouteBody } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

export type NoticeState = (typeof NOTICE_STATES)[number];
const invalidate = ['notices'];

/** One page of notices, in one state or all. */
export function useNotices(state: NoticeState | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: ['notices', state, cursor],
    queryFn: () => apiCall('adminNoticeList', { query: { state, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}

/** Creates a notice, or edits the one with `id`. */
export function useSaveNotice(id: number | undefined, onSuccess: () => void) {
  return useAction(
    (body: RouteBody<'adminNoticeAdd'>) =>
      id === undefined
        ? apiRequest('adminNoticeAdd', { body })
        : apiRequest('adminNoticeEdit', { body: { id, ...body } }),
    { invalidate, onSuccess },
  );
}

/** Publishes / unpublishes or pins / unpins one notice. */
export function useToggleNotice() {
  return useAction(
    (body: { id: number; pinned?: boolean; published?: boolean }) => apiRequest('adminNoticeEdit', { body }),
    { invalidate },
  );
}

export function useDeleteNotice() {
  return useAction((id: number) => apiRequest('adminNoticeDelete', { body: { id } }), { invalidate });
}
