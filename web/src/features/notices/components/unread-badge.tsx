import { useUnread } from '../api/get-unread';
import { UnreadBadgeView } from './unread-badge-view';

/** The unread count on the query cache (Profile, and the My tab once TanStack Query has loaded). */
export function UnreadBadge({ className }: { className?: string }) {
  const unread = useUnread();
  return <UnreadBadgeView count={unread.data?.count ?? 0} className={className} />;
}
