import { useTranslation } from 'react-i18next';
import { useOnline } from '../lib/use-online';

/**
 * Says why nothing loads while the device has no connection. The app shell itself comes from the
 * service worker's cache; data requests wait (React Query pauses them) and run when the connection
 * is back.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <div className="stack offline-banner text-13" role="status">
      <strong>{t('offline.title')}</strong>
      <span>{t('offline.body')}</span>
    </div>
  );
}
