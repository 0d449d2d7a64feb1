import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { onSessionEnded } from '../../lib/api';
import { showForm } from '../../lib/form-dialog';
import { useCurrentRoute } from '../current-route';
import { FormDialogHost } from '../form-dialog/form-dialog-host';
import { useInviteParam } from '../invite-param';

export function RootLayout() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const title = route && route.titleKey !== 'home' ? `${t(`pages.${route.titleKey}`)} · ${t('brand')}` : t('brand');

  useEffect(() => {
    document.title = title;
  }, [title]);

  // A session that ended on the server (expired, revoked by a password change) asks for a new login.
  useEffect(() => onSessionEnded(() => showForm('login')), []);
  useInviteParam();

  return (
    <div className="app">
      <Outlet />
      <FormDialogHost />
    </div>
  );
}
