import { ApiError } from '@kamai/client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { currentLocale } from '../../../i18n';
import { messageOf } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useFinishTask } from './finish-task';
import { taskListQueryOptions } from './get-tasks';

/**
 * Claims a task's reward when the server's fresh task list says it can be claimed; for pages whose visit
 * completes a task (the introduction). A reward claimed meanwhile elsewhere is no news to the user.
 */
export function useClaimIfClaimable(): (taskId: number) => Promise<void> {
  const queryClient = useQueryClient();
  const { mutateAsync } = useFinishTask();
  return useCallback(
    async (taskId: number) => {
      const list = await queryClient.fetchQuery({ ...taskListQueryOptions(currentLocale()), staleTime: 0 });
      const task = list.sections.flatMap((section) => section.items).find((item) => item.id === taskId);
      if (task?.state !== 'claimable') return;
      try {
        toastSuccess((await mutateAsync(taskId)).message);
      } catch (error) {
        if (error instanceof ApiError && error.key === 'task_already_claimed') return;
        toastError(messageOf(error));
      }
    },
    [queryClient, mutateAsync],
  );
}
