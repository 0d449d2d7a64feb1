import Button from 'antd-mobile/es/components/button';
import { LockOutline } from 'antd-mobile-icons';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsLoggedIn } from '../lib/api';
import { showForm } from '../lib/form-dialog';
import { useCurrentRoute } from './current-route';

/** Shows the page to a logged-in user; otherwise opens the login form over a short explanation. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const route = useCurrentRoute();
  const loggedIn = useIsLoggedIn();
  if (!route?.auth || loggedIn) return children;
  return <LoginRequired />;
}

function LoginRequired() {
  const { t } = useTranslation();
  useEffect(() => {
    showForm('login');
  }, []);
  return (
    <div className="stack login-required text-center">
      <LockOutline className="login-required-icon primary" aria-hidden />
      <h2>{t('loginRequired.title')}</h2>
      <p className="muted">{t('loginRequired.description')}</p>
      <Button color="primary" shape="rounded" onClick={() => showForm('login')}>
        {t('loginRequired.action')}
      </Button>
    </div>
  );
}
