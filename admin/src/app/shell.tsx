import { LogoutOutlined, MenuOutlined } from '@ant-design/icons';
import type { UserDetail } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Drawer, Layout, Menu, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSelect } from '../components/language-select';
import { OfficerBanner, useComplaintSummary } from '../features/complaints';
import { usePendingChanges } from '../features/control/api/control';
import { DelayBanner } from '../features/control/components/delay-banner';
import { apiCall, clearToken } from '../lib/api';
import { useQueueCounts } from '../lib/queue-counts';
import { allowed, MeContext } from '../lib/roles';
import { useWide } from '../lib/wide';
import { PAGES } from './pages';
import { QueueBadge, useTabTitle } from './queue-badge';

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

  const menu = (
    <Menu
      mode="inline"
      className="shell-menu"
      selectedKeys={current ? [current.path] : []}
      onClick={({ key }) => {
        setMenuOpen(false);
        navigate(`/${key}`);
      }}
      items={visible.map((page) => ({
        key: page.path,
        icon: page.icon,
        label: page.Count ? (
          <span className="menu-label">
            {t(`menu.${page.label}`)} <page.Count />
          </span>
        ) : page.queue ? (
          <span className="menu-label">
            {t(`menu.${page.label}`)} <QueueBadge queue={page.queue} counts={counts} />
          </span>
        ) : page.path === 'changes' && pending > 0 ? (
          <Space size="small">
            {t(`menu.${page.label}`)}
            <Badge count={pending} />
          </Space>
        ) : (
          t(`menu.${page.label}`)
        ),
      }))}
    />
  );

  return (
    <MeContext.Provider value={me}>
      <Layout className="shell">
        {phone ? (
          <Drawer
            placement="left"
            open={menuOpen}
            onClose={() => setMenuOpen(false)}
            width={260}
            title={t('layout.brand')}
            styles={{ body: { padding: 0 } }}
          >
            {menu}
          </Drawer>
        ) : (
          <Layout.Sider width={220} theme="light" className="shell-sider">
            <div className="shell-brand">{t('layout.brand')}</div>
            {menu}
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
                  onClick={() => setMenuOpen(true)}
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
