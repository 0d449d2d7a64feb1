import { LogoutOutlined } from '@ant-design/icons';
import type { UserDetail } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Menu, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSelect } from '../components/language-select';
import { apiCall, clearToken } from '../lib/api';
import { allowed, MeContext } from '../lib/roles';
import { PAGES } from './pages';

/** The logged-in console: the menu of the pages the role may open, the operator, and the page. */
export function Shell({ me }: { me: UserDetail }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const visible = PAGES.filter((page) => allowed(me.role, page.route));
  const current = PAGES.find((page) => pathname === `/${page.path}`);

  async function logout() {
    await apiCall('logout').catch(() => undefined);
    clearToken();
    client.clear();
  }

  return (
    <MeContext.Provider value={me}>
      <Layout className="shell">
        <Layout.Sider width={220} theme="light" className="shell-sider">
          <div className="shell-brand">{t('layout.brand')}</div>
          <Menu
            mode="inline"
            className="shell-menu"
            selectedKeys={current ? [current.path] : []}
            onClick={({ key }) => navigate(`/${key}`)}
            items={visible.map((page) => ({ key: page.path, icon: page.icon, label: t(`menu.${page.label}`) }))}
          />
        </Layout.Sider>
        <Layout>
          <Layout.Header className="shell-header">
            <Typography.Title level={4} className="shell-title">
              {current ? t(`menu.${current.label}`) : ''}
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
          <Layout.Content className="shell-content">
            <Outlet />
          </Layout.Content>
        </Layout>
      </Layout>
    </MeContext.Provider>
  );
}
