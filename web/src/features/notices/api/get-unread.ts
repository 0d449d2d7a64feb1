import { useQuery } from '@tanstack/react-query';
import { useToken } from '../../../lib/api';
import { unreadQueryOptions } from './unread-query';

export { getUnread, unreadKey, unreadQueryOptions } from './unread-query';

/** How many notices and notifications the caller has not opened; idle while logged out. */
export function useUnread() {
  const token = useToken();
  return useQuery({ ...unreadQueryOptions(), enabled: token !== null });
}
