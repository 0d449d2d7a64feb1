import { useQuery } from '@tanstack/react-query';
import { useToken } from '../../../lib/api';
import { userDetailQueryOptions } from './user-detail-query';

export { getUserDetail, userDetailKey, userDetailQueryOptions } from './user-detail-query';

/** The logged-in user; idle while logged out. */
export function useUserDetail() {
  const token = useToken();
  return useQuery({ ...userDetailQueryOptions(), enabled: token !== null });
}
