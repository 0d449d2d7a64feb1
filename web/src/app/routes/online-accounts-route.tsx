import { OnlineAccountsPage } from '../../features/linked-accounts';
import { QueryProvider } from '../../lib/query-client';

export default function OnlineAccountsRoute() {
  return (
    <QueryProvider>
      <OnlineAccountsPage />
    </QueryProvider>
  );
}
