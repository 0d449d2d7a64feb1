import { useUserDetail } from '../api/get-user-detail';
import { BalanceCardView } from './balance-card-view';

/** Home's balance card on the query cache. */
export function BalanceCard() {
  return <BalanceCardView user={useUserDetail()} />;
}
