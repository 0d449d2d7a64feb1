import { QueryProvider } from '../../../lib/query-client';
import { UnreadBadge } from './unread-badge';

/** The My tab's unread count on the query cache, once TanStack Query has loaded (tab-unread-badge.tsx). */
export default function LiveTabUnreadBadge() {
  return (
    <QueryProvider>
      <UnreadBadge className="tab-unread-badge" />
    </QueryProvider>
  );
}
