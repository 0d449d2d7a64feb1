import { Badge } from 'antd';
import { useUnclaimedOpen } from '../api/get-unclaimed';

/** The menu's count of unclaimed money waiting for an operator (nothing when none waits). */
export function UnclaimedCount() {
  const open = useUnclaimedOpen();
  return <Badge count={open.data ?? 0} size="small" className="menu-count" data-testid="unclaimed-count" />;
}
