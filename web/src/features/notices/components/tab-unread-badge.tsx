import { lazy, Suspense } from 'react';
import { useQueryClientLoaded } from '../../../lib/query-later';
import { useFirstUnread } from '../api/unread-first';
import { UnreadBadgeView } from './unread-badge-view';

const LiveTabUnreadBadge = lazy(() => import('./live-tab-unread-badge'));

/**
 * The unread count on the tab bar's My tab, seen from Home and Add too (the tab bar shows it once a
 * user is logged in). On Home's first screen it is one plain read, without TanStack Query; once the
 * library has loaded (a page, form or action needed it), it is the query-backed badge, which opening
 * and listing notices update.
 */
export function TabUnreadBadge({ token }: { token: string }) {
  const live = useQueryClientLoaded();
  const count = useFirstUnread(token, live);
  const first = <UnreadBadgeView count={count} className="tab-unread-badge" />;
  if (!live) return first;
  return (
    <Suspense fallback={first}>
      <LiveTabUnreadBadge />
    </Suspense>
  );
}
