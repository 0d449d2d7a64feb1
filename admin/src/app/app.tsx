import { ApiError } from '@kamai/client';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Button, ConfigProvider, Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter } from 'react-router';
import { LoginPage } from '../features/auth/pages/login-page';
import { currentLocale } from '../i18n';
import { ANTD_LOCALES } from '../i18n/antd-locales';
import { apiCall, clearToken, messageOf, onSessionEnded, useToken } from '../lib/api';
import { ConsoleRoutes } from './router';
import { CONSOLE_THEME } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.code > 0) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** The login form until a staff session exists, then the console (the hash keeps the page asked for). */
function Console() {
  const { t } = useTranslation();
  const token = useToken();
  const client = useQueryClient();
  useEffect(() => onSessionEnded(() => client.clear()), [client]);
  const me = useQuery({ queryKey: ['me', token], queryFn: () => apiCall('userDetail'), enabled: token !== null });
  const refused = me.data?.role === 'user';
  useEffect(() => {
    if (refused) clearToken();
  }, [refused]);

  if (token === null || refused) return <LoginPage />;
  if (me.isPending) return <Spin fullscreen />;
  if (me.isError) {
    return (
      <Result
        status="error"
        title={messageOf(me.error)}
        extra={<Button onClick={() => clearToken()}>{t('layout.backToLogin')}</Button>}
      />
    );
  }
  return <ConsoleRoutes me={me.data} />;
}

export function App() {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={ANTD_LOCALES[currentLocale()]} key={i18n.language} theme={CONSOLE_THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <HashRouter>
            <Console />
          </HashRouter>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
