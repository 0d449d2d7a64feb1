import { PayoutMethodsPage } from '../../features/payouts';
import { QueryProvider } from '../../lib/query-client';

export default function PayoutMethodsRoute() {
  return (
    <QueryProvider>
      <PayoutMethodsPage />
    </QueryProvider>
  );
}
