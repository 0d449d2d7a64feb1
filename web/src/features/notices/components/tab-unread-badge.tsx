import { QueryProvider } from '../../../lib/query-client';
import { UnreadBadge } from './unread-badge';

/**
 * The unread count on the tab bar's My tab, seen from Home and Add too. Loaded lazily by the tab bar
 * once a user is logged in, so React Query stays out of a visitor's first page.
 */
export default function TabUnreadBadge() {
  return (
    <QueryProvider>
      <UnreadBadge className="tab-unread-badge" />
    </QueryProvider>
  );
}
