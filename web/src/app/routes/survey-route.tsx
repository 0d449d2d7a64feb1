import { SurveyPage } from '../../features/survey';
import { QueryProvider } from '../../lib/query-client';

export default function SurveyRoute() {
  return (
    <QueryProvider>
      <SurveyPage />
    </QueryProvider>
  );
}
