import { InfoPage } from '../../features/account';
import { QueryProvider } from '../../lib/query-client';

export default function PrivacyRoute() {
  return (
    <QueryProvider>
      <InfoPage slug="privacy" />
    </QueryProvider>
  );
}
