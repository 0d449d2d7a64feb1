import { IncomePage } from '../../features/wallet';
import { QueryProvider } from '../../lib/query-client';

export default function IncomeRoute() {
  return (
    <QueryProvider>
      <IncomePage />
    </QueryProvider>
  );
}
