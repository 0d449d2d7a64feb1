import { InfoPage } from '../../features/account';
import { QueryProvider } from '../../lib/query-client';

export default function TermsRoute() {
  return (
    <QueryProvider>
      <InfoPage slug="terms" />
    </QueryProvider>
  );
}
