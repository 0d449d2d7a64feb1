import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { onSessionEnded } from '../../lib/api';
import { showForm } from '../../lib/form-dialog';
import { Outlet, useLocation } from '../../lib/router';
import { useCurrentRoute } from '../current-route';
import { FormDialogHost } from '../form-dialog/form-dialog-host';
import { useInviteParam } from '../invite-param';
import { OfflineBanner } from '../offline-banner';
import { reloadIfUpdated } from '../service-worker';

export function RootLayout() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const title = route && route.titleKey !== 'home' ? `${t(`screens.${route.titleKey}`)} · ${t('brand')}` : t('brand');

  useEffect(() => {
    document.title = title;
  }, [title]);

  // A session that ended on the server (expired, revoked by a password change) asks for a new login.
  useEffect(() => onSessionEnded(() => showForm('login')), []);
  useInviteParam();
  const { pathname } = useLocation();
  // A new build waiting (service-worker.ts) is loaded between pages, never in the middle of one.
  useEffect(() => {
    if (pathname) reloadIfUpdated();
  }, [pathname]);

  return (
    <div className="app">
      <OfflineBanner />
      <Outlet />
      <FormDialogHost />
    </div>
  );
}
