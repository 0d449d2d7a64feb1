import { AddPage } from '../../features/linked-accounts';
import { QueryProvider } from '../../lib/query-client';

export default function AddRoute() {
  return (
    <QueryProvider>
      <AddPage />
    </QueryProvider>
  );
}
