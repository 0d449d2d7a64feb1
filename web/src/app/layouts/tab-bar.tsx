import { AddOutline, AppOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';
// By path: the feature's index also exports the inbox page.
import { TabUnreadBadge } from '../../features/notices/components/tab-unread-badge';
import { useToken } from '../../lib/api';
import { NavLink } from '../../lib/router';

/** Bottom navigation: Home, Add (raised, in the middle) and My. Real links, so each tab has an address. */
export function TabBar() {
  const { t } = useTranslation();
  const token = useToken();
  const className = ({ isActive }: { isActive: boolean }) => (isActive ? 'tab-bar-item active' : 'tab-bar-item');
  return (
    <nav className="tab-bar" aria-label={t('tabs.label')}>
      <NavLink to={paths.home} className={className}>
        <AppOutline className="tab-bar-icon" aria-hidden />
        <span>{t('tabs.home')}</span>
      </NavLink>
      <NavLink to={paths.add} className={(state) => `${className(state)} tab-bar-add`}>
        <span className="tab-bar-add-circle row" aria-hidden>
          <AddOutline />
        </span>
        <span>{t('tabs.add')}</span>
      </NavLink>
      <NavLink to={paths.user} className={className}>
        <UserOutline className="tab-bar-icon" aria-hidden />
        <span>{t('tabs.user')}</span>
        {token !== null && <TabUnreadBadge token={token} />}
      </NavLink>
    </nav>
  );
}
