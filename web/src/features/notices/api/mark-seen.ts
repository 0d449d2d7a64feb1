import type { InboxItem } from '@kamai/contract';
import { NOTICE_SEEN_MAX } from '@kamai/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiCall } from '../../../lib/api';
import { unreadKey } from './get-unread';

/**
 * Marks read what the list shows (the Profile badge once stayed at 5, then 11, after the list was
 * opened). The unread dots stay for this visit, so the user still sees what is new; the badge takes
 * the server's new count at once. Each item is sent once per visit; a failure is retried on the next.
 */
export function useMarkSeen(items: InboxItem[]) {
  const queryClient = useQueryClient();
  const sent = useRef(new Set<string>());
  useEffect(() => {
    const fresh = items.filter((item) => !item.read && !sent.current.has(`${item.kind}:${item.id}`));
    if (fresh.length === 0) return;
    for (const item of fresh) sent.current.add(`${item.kind}:${item.id}`);
    const batch = fresh.slice(0, NOTICE_SEEN_MAX);
    const ids = (kind: InboxItem['kind']) => batch.filter((item) => item.kind === kind).map((item) => item.id);
    apiCall('noticeSeen', { body: { notices: ids('notice'), notifications: ids('notification') } }).then(
      (counts) => queryClient.setQueryData(unreadKey, counts),
      () => {
        for (const item of batch) sent.current.delete(`${item.kind}:${item.id}`);
      },
    );
  }, [items, queryClient]);
}
