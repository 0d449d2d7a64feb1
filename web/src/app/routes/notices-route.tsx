import { NoticesPage } from '../../features/notices';
import { QueryProvider } from '../../lib/query-client';

export default function NoticesRoute() {
  return (
    <QueryProvider>
      <NoticesPage />
    </QueryProvider>
  );
}
