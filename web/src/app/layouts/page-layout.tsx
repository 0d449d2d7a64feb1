import { LeftOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';
import { Outlet, useLocation, useNavigate } from '../../lib/router';
import { useCurrentRoute } from '../current-route';
import { RequireAuth } from '../require-auth';

/**
 * The /List, survey and introduction pages: a title bar with a back arrow. Built like antd-mobile's
 * NavBar, but with a real button (NavBar wraps its back arrow in an unnamed role="button" div).
 */
export function PageLayout() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const navigate = useNavigate();
  const location = useLocation();
  // Opened directly (no history inside the app): back leads to the account page that links here.
  const back = () => (location.key === 'default' ? navigate(paths.user) : navigate(-1));
  return (
    <div className="page-layout">
      <header className="nav-bar">
        <button type="button" className="nav-bar-back row" aria-label={t('nav.back')} onClick={back}>
          <LeftOutline aria-hidden />
        </button>
        <h1 className="nav-bar-title ellipsis semibold text-center">{route ? t(`screens.${route.titleKey}`) : ''}</h1>
        <span className="nav-bar-side" />
      </header>
      <main className="page-layout-main">
        <RequireAuth>
          <Outlet />
        </RequireAuth>
      </main>
    </div>
  );
}
