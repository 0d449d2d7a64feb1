import { LogoutOutlined, MenuOutlined } from '@ant-design/icons';
import type { UserDetail } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Space, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSelect } from '../components/language-select';
import { OfficerBanner, useComplaintSummary } from '../features/complaints';
import { usePendingChanges } from '../features/control/api/control';
import { DelayBanner } from '../features/control/components/delay-banner';
import { apiCall, clearToken } from '../lib/api';
import { useQueueCounts } from '../lib/queue-counts';
import { allowed, MeContext } from '../lib/roles';
import { isWide, useWide } from '../lib/wide';
import { PAGES } from './pages';
import { useTabTitle } from './queue-badge';
import type { ShellMenuProps } from './shell-menu';

// The menu is its own chunk: the sidebar fetches it at once, a phone when its drawer is first opened.
const loadMenu = () => import('./shell-menu');
const ShellMenu = lazy(loadMenu);
const MenuDrawer = lazy(() => loadMenu().then((m) => ({ default: m.MenuDrawer })));
if (isWide()) void loadMenu();

/** The logged-in console: the menu of the pages the role may open, the operator, and the page. */
export function Shell({ me }: { me: UserDetail }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const visible = PAGES.filter((page) => allowed(me.role, page.route));
  const current = PAGES.find((page) => pathname === `/${page.path}`);
  // Below 768 px the menu lives in a drawer behind a button; the sidebar would leave no room for the page.
  const phone = !useWide();
  const [menuOpen, setMenuOpen] = useState(false);
  // The drawer is mounted at its first opening and kept (so it closes with its motion).
  const [menuUsed, setMenuUsed] = useState(false);
  const changes = usePendingChanges();
  const pending = changes.data?.pending ?? 0;
  // The page is drawn but not shown until both banners above it know whether they show: a banner that
  // came after the page's first rows would push them down (a layout shift of 0.05 to 0.1 on a phone).
  const officer = useComplaintSummary();
  const bannersKnown = !changes.isPending && !officer.isPending;
  const counts = useQueueCounts().data;
  useTabTitle(current ? t(`menu.${current.label}`) : '', t('layout.brand'), current?.queue, counts);

  async function logout() {
    await apiCall('logout').catch(() => undefined);
    clearToken();
    client.clear();
  }

  const menu: ShellMenuProps = {
    pages: visible,
    current,
    pending,
    counts,
    onPick: (path) => {
      setMenuOpen(false);
      navigate(`/${path}`);
    },
  };

  return (
    <MeContext.Provider value={me}>
      <Layout className="shell">
        {phone ? (
          menuUsed && (
            <Suspense fallback={null}>
              <MenuDrawer open={menuOpen} onClose={() => setMenuOpen(false)} {...menu} />
            </Suspense>
          )
        ) : (
          <Layout.Sider width={220} theme="light" className="shell-sider">
            <div className="shell-brand">{t('layout.brand')}</div>
            <Suspense fallback={null}>
              <ShellMenu {...menu} />
            </Suspense>
          </Layout.Sider>
        )}
        <Layout>
          <Layout.Header className="shell-header">
            <div className="shell-header-start">
              {phone && (
                <Button
                  className="shell-menu-button"
                  icon={<MenuOutlined />}
                  aria-label={t('layout.menu')}
                  onClick={() => {
                    setMenuUsed(true);
                    setMenuOpen(true);
                  }}
                />
              )}
              <Typography.Title level={4} className="shell-title">
                {current ? t(`menu.${current.label}`) : ''}
              </Typography.Title>
            </div>
            <Space size={phone ? 'small' : 'middle'} className="shell-header-end">
              {!phone && (
                <Typography.Text strong data-testid="operator">
                  {me.username}
                </Typography.Text>
              )}
              {!phone && <Tag color={me.role === 'admin' ? 'green' : 'blue'}>{t(`roles.${me.role}`)}</Tag>}
              <LanguageSelect />
              <Button
                icon={<LogoutOutlined />}
                aria-label={t('layout.logout')}
                title={t('layout.logout')}
                onClick={() => void logout()}
              >
                {phone ? null : t('layout.logout')}
              </Button>
            </Space>
          </Layout.Header>
          <Layout.Content className="shell-content">
            <DelayBanner />
            <OfficerBanner />
            <div className={bannersKnown ? undefined : 'shell-page-waiting'}>
              <Outlet />
            </div>
          </Layout.Content>
        </Layout>
      </Layout>
    </MeContext.Provider>
  );
}
