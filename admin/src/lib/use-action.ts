import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { messageOf } from './api';

/**
 * A console action: calls the server, shows its translated answer (or its refusal), and refreshes the
 * lists under `invalidate`.
 */
export function useAction<V, R extends { message: string }>(
  mutationFn: (values: V) => Promise<R>,
  { invalidate, onSuccess }: { invalidate: QueryKey; onSuccess?: (result: R) => void },
) {
  const { message } = App.useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: invalidate });
      onSuccess?.(result);
    },
    onError: (error) => void message.error(messageOf(error)),
  });
}
