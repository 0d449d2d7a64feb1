import Tabs from 'antd-mobile/es/components/tabs';
import { useTranslation } from 'react-i18next';
import type { FormData, FormName } from '../../../lib/form-dialog';

interface AuthTabsProps {
  active: 'login' | 'register';
  show: (name: FormName, data?: FormData) => void;
  /** Carried over to the other tab, so a typed username is not lost. */
  username: string;
}

/** The Login / Register switch at the top of the login dialog; each tab is its own registered form. */
export function AuthTabs({ active, show, username }: AuthTabsProps) {
  const { t } = useTranslation('auth');
  return (
    <Tabs
      className="auth-tabs"
      activeKey={active}
      onChange={(key) => {
        if (key === 'login' || key === 'register') show(key, { username });
      }}
    >
      <Tabs.Tab key="login" title={t('tabs.login')} />
      <Tabs.Tab key="register" title={t('tabs.register')} />
    </Tabs>
  );
}
