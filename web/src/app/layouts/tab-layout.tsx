import { useTranslation } from 'react-i18next';
import { Outlet } from '../../lib/router';
import { useCurrentRoute } from '../current-route';
import { LanguageButton } from '../language/language-button';
import { RequireAuth } from '../require-auth';
import { TabBar } from './tab-bar';

/** Home, Add and My: a header with the page title and the language picker, the page, the tab bar. */
export function TabLayout() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const title = route?.titleKey === 'home' ? t('brand') : route ? t(`screens.${route.titleKey}`) : '';
  return (
    <div className="tab-layout">
      <header className="top-bar row space-between">
        <h1 className="top-bar-title bold">{title}</h1>
        <LanguageButton />
      </header>
      <main className="tab-layout-main">
        <RequireAuth>
          <Outlet />
        </RequireAuth>
      </main>
      <TabBar />
    </div>
  );
}
