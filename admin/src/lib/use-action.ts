import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from './api';
import { QUEUE_COUNTS_KEY } from './queue-counts';
import { staleOf, staleText } from './stale';

/**
 * A console action: calls the server, shows its translated answer, and refreshes the lists under
 * `invalidate` and the menu's counts at once. A refusal because someone else decided the item first
 * (docs/decisions/console-queues-refresh.md) is explained (who, when, what it is now), the list is
 * refreshed, and `onStale` closes the dialog about it; any other refusal shows the server's message.
 */
export function useAction<V, R extends { message: string }>(
  mutationFn: (values: V) => Promise<R>,
  { invalidate, onSuccess, onStale }: { invalidate: QueryKey; onSuccess?: (result: R) => void; onStale?: () => void },
) {
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const client = useQueryClient();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: invalidate });
    void client.invalidateQueries({ queryKey: QUEUE_COUNTS_KEY });
  };
  return useMutation({
    mutationFn,
    onSuccess: (result) => {
      void message.success(result.message);
      refresh();
      onSuccess?.(result);
    },
    onError: (error) => {
      const stale = staleOf(error);
      if (!stale) {
        void message.error(messageOf(error));
        return;
      }
      refresh();
      onStale?.();
      notification.warning({
        message: t('stale.title'),
        description: staleText(stale),
        duration: 10,
        placement: 'bottom',
      });
    },
  });
}
