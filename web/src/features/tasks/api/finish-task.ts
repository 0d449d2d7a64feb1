import { useMutation, useQueryClient } from '@tanstack/react-query';
import { finishTask } from './finish-task-request';

export { finishTask } from './finish-task-request';

/** Claims a task's reward. A reward moves the balance, the income records and task states: all refetch. */
export function useFinishTask() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: finishTask, onSuccess: () => queryClient.invalidateQueries() });
}
