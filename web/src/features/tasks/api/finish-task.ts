import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function finishTask(taskId: number) {
  return apiRequest('taskFinish', { body: { taskId } });
}

/** Claims a task's reward. A reward moves the balance, the income records and task states: all refetch. */
export function useFinishTask() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: finishTask, onSuccess: () => queryClient.invalidateQueries() });
}
