import { WithdrawalsPage } from '../../features/payouts';
import { QueryProvider } from '../../lib/query-client';

export default function ReviewsRoute() {
  return (
    <QueryProvider>
      <WithdrawalsPage />
    </QueryProvider>
  );
}
