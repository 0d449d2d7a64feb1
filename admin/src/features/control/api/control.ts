import type { ControlChangeRef, ControlChangeState } from '@kamai/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

/** One page of proposed changes, newest first; every answer also counts the pending ones. */
export function useControlChanges(state: ControlChangeState | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: ['control', state, cursor],
    queryFn: () => apiCall('adminControlList', { query: { state, cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}

/** The pending count and the single-admin delay, for the menu and the banner of every page. */
export function usePendingChanges() {
  return useQuery({
    queryKey: ['control', 'summary'],
    queryFn: () => apiCall('adminControlList', { query: { state: 'pending', limit: 1 } }),
    refetchInterval: 60_000,
    select: (data) => ({ pending: data.pending, delayedUntil: data.delayedUntil }),
  });
}

export function useDecideChange() {
  return useAction(
    ({ id, action }: { id: number; action: 'apply' | 'cancel' }) =>
      apiRequest(action === 'apply' ? 'adminControlApply' : 'adminControlCancel', { body: { id } }),
    { invalidate: ['control'] },
  );
}

/** An answer that proposed instead of applying says so instead of the plain confirmation. */
export function saidProposed<R extends { message: string; data: { change: ControlChangeRef | null } }>(result: R): R {
  return result.data.change ? { ...result, message: i18n.t('control.proposed') } : result;
}

/** Refreshes the pending changes (the menu's count, the banner) after an action that may have proposed one. */
export function useChangesRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ['control'] });
}
