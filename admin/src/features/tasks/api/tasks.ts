import type { RouteBody } from '@kamai/contract';
import { useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

const invalidate = ['tasks'];

/** Every task (one table, no pages: there are tens, not thousands). */
export function useTasks() {
  return useQuery({ queryKey: invalidate, queryFn: () => apiCall('adminTaskList') });
}

/** Creates a task, or edits the one with `id`. */
export function useSaveTask(id: number | undefined, onSuccess: () => void) {
  return useAction(
    (body: RouteBody<'adminTaskAdd'>) =>
      id === undefined ? apiRequest('adminTaskAdd', { body }) : apiRequest('adminTaskEdit', { body: { id, ...body } }),
    { invalidate, onSuccess },
  );
}

export function useDeleteTask() {
  return useAction((id: number) => apiRequest('adminTaskDelete', { body: { id } }), { invalidate });
}
