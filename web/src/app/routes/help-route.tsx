import { InfoPage } from '../../features/account';
import { QueryProvider } from '../../lib/query-client';

export default function HelpRoute() {
  return (
    <QueryProvider>
      <InfoPage slug="help" />
    </QueryProvider>
  );
}
