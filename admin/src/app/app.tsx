import { ApiError } from '@kamai/client';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { ConfigProvider, Spin } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginPage } from '../features/auth/pages/login-page';
import { currentLocale } from '../i18n';
import { antdLocale } from '../i18n/antd-locales';
import { apiCall, clearToken, getToken, onSessionEnded, useToken } from '../lib/api';
import { CONSOLE_THEME } from './theme';

/**
 * The console (its router, menu, pages, tables and antd's message and modal hosts) is a chunk of its
 * own, so the login page carries none of it; the login form stays in the first chunk, whose parts
 * (form, inputs, select) the console's pages use too. With a session kept from before, the console's
 * chunk is fetched at once, beside the session check.
 */
const loadConsole = () => import('./router');
const ConsoleRoutes = lazy(() => loadConsole().then((m) => ({ default: m.ConsoleRoutes })));
const SessionError = lazy(() => import('./session-error').then((m) => ({ default: m.SessionError })));
if (getToken() !== null) void loadConsole();

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
  const token = useToken();
  const client = useQueryClient();
  useEffect(() => onSessionEnded(() => client.clear()), [client]);
  const me = useQuery({ queryKey: ['me', token], queryFn: () => apiCall('userDetail'), enabled: token !== null });
  const refused = me.data?.role === 'user';
  useEffect(() => {
    if (refused) clearToken();
  }, [refused]);

  let screen: ReactNode;
  if (token === null || refused) screen = <LoginPage />;
  else if (me.isPending) screen = <Spin fullscreen />;
  else if (me.isError) screen = <SessionError error={me.error} />;
  else screen = <ConsoleRoutes me={me.data} />;
  return <Suspense fallback={<Spin fullscreen />}>{screen}</Suspense>;
}

export function App() {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={antdLocale(currentLocale())} key={i18n.language} theme={CONSOLE_THEME}>
      <QueryClientProvider client={queryClient}>
        <Console />
      </QueryClientProvider>
    </ConfigProvider>
  );
}
