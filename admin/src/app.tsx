import {
  AuditOutlined,
  DashboardOutlined,
  LinkOutlined,
  LogoutOutlined,
  MailOutlined,
  NotificationOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { ApiError } from '@kamai/client';
import type { Locale, RouteName, UserDetail } from '@kamai/contract';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Button, ConfigProvider, Layout, Menu, Result, Space, Spin, Tag, Typography } from 'antd';
import enUS from 'antd/locale/en_US';
import hiIN from 'antd/locale/hi_IN';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from './components/language-select';
import { currentLocale } from './i18n';
import { apiCall, clearToken, messageOf, onSessionEnded, useToken } from './lib/api';
import { goTo, type PageName, usePage } from './lib/hash-route';
import { allowed, MeContext } from './lib/roles';
import { AuditPage } from './pages/audit';
import { DashboardPage } from './pages/dashboard';
import { LinkedPage } from './pages/linked';
import { LoginPage } from './pages/login';
import { NoticesPage } from './pages/notices';
import { OutboxPage } from './pages/outbox';
import { SettingsPage } from './pages/settings';
import { TasksPage } from './pages/tasks';
import { UsersPage } from './pages/users';
import { WithdrawalsPage } from './pages/withdrawals';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.code > 0) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** Each page, its icon, and the route whose roles decide whether the menu shows it. */
const MENU: { page: PageName; icon: ReactNode; route: RouteName; render: () => ReactNode }[] = [
  { page: 'dashboard', icon: <DashboardOutlined />, route: 'adminDashboard', render: () => <DashboardPage /> },
  { page: 'withdrawals', icon: <WalletOutlined />, route: 'adminWithdrawList', render: () => <WithdrawalsPage /> },
  { page: 'users', icon: <TeamOutlined />, route: 'adminUserList', render: () => <UsersPage /> },
  { page: 'tasks', icon: <ScheduleOutlined />, route: 'adminTaskList', render: () => <TasksPage /> },
  { page: 'notices', icon: <NotificationOutlined />, route: 'adminNoticeList', render: () => <NoticesPage /> },
  { page: 'settings', icon: <SettingOutlined />, route: 'adminSettingsGet', render: () => <SettingsPage /> },
  { page: 'linked', icon: <LinkOutlined />, route: 'adminWsList', render: () => <LinkedPage /> },
  { page: 'outbox', icon: <MailOutlined />, route: 'adminOtpOutbox', render: () => <OutboxPage /> },
  { page: 'audit', icon: <AuditOutlined />, route: 'adminAuditList', render: () => <AuditPage /> },
];

const ANTD_LOCALES: Partial<Record<Locale, typeof enUS>> = { hi_IN: hiIN, zh_CN: zhCN };

function Shell({ me }: { me: UserDetail }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const page = usePage();
  const visible = MENU.filter((item) => allowed(me.role, item.route));
  // A page the role may not open (an old link, a link from an admin) is refused in words, not swapped.
  const refused = page !== undefined && !visible.some((item) => item.page === page);
  const home = visible[0];
  const current = visible.find((item) => item.page === page) ?? (refused ? undefined : home);

  async function logout() {
    await apiCall('logout').catch(() => undefined);
    clearToken();
    client.clear();
  }

  return (
    <MeContext.Provider value={me}>
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Sider width={220} theme="light" style={{ borderRight: '1px solid #e8ecea' }}>
          <div style={{ padding: '18px 24px', fontWeight: 700, fontSize: 18, color: '#0e7c5a' }}>
            {t('layout.brand')}
          </div>
          <Menu
            mode="inline"
            selectedKeys={current ? [current.page] : []}
            onClick={({ key }) => goTo(key as PageName)}
            items={visible.map((item) => ({ key: item.page, icon: item.icon, label: t(`menu.${item.page}`) }))}
            style={{ borderInlineEnd: 'none' }}
          />
        </Layout.Sider>
        <Layout>
          <Layout.Header
            style={{
              background: '#fff',
              display: 'flex',
              justifyContent: 'space-between',
              alignItems: 'center',
              padding: '0 24px',
              borderBottom: '1px solid #e8ecea',
            }}
          >
            <Typography.Title level={4} style={{ margin: 0 }}>
              {refused && page ? t(`menu.${page}`) : current ? t(`menu.${current.page}`) : ''}
            </Typography.Title>
            <Space size="middle">
              <Typography.Text strong data-testid="operator">
                {me.username}
              </Typography.Text>
              <Tag color={me.role === 'admin' ? 'green' : 'blue'}>{t(`roles.${me.role}`)}</Tag>
              <LanguageSelect />
              <Button icon={<LogoutOutlined />} onClick={() => void logout()}>
                {t('layout.logout')}
              </Button>
            </Space>
          </Layout.Header>
          <Layout.Content style={{ padding: 24 }}>
            {refused ? (
              <Result
                status="403"
                title={t('layout.forbidden')}
                subTitle={t('layout.forbiddenNote', { role: t(`roles.${me.role}`) })}
                extra={
                  home && (
                    <Button type="primary" onClick={() => goTo(home.page)}>
                      {t(`menu.${home.page}`)}
                    </Button>
                  )
                }
              />
            ) : (
              current?.render()
            )}
          </Layout.Content>
        </Layout>
      </Layout>
    </MeContext.Provider>
  );
}

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
  return <Shell me={me.data} />;
}

export function App() {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[currentLocale()] ?? enUS}
      key={i18n.language}
      theme={{ token: { colorPrimary: '#0e7c5a', borderRadius: 6 } }}
    >
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <Console />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
