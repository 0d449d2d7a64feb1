import type { UserDetail } from '@kamai/contract';
import { App as AntApp, Button, Result, Spin } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { allowed, useMe } from '../lib/roles';
import { type ConsolePage, OLD_PATHS, PAGES } from './pages';
import { Shell } from './shell';

/** A page the role may not open (an old link, a link from an admin) is refused in words, not swapped. */
function Guarded({ page }: { page: ConsolePage }) {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  if (!allowed(me.role, page.route)) {
    const home = PAGES.find((p) => allowed(me.role, p.route));
    return (
      <Result
        status="403"
        title={t('layout.forbidden')}
        subTitle={t('layout.forbiddenNote', { role: t(`roles.${me.role}`) })}
        extra={
          home && (
            <Button type="primary" onClick={() => navigate(`/${home.path}`)}>
              {t(`menu.${home.label}`)}
            </Button>
          )
        }
      />
    );
  }
  return (
    <Suspense fallback={<Spin />}>
      <page.Page />
    </Suspense>
  );
}

/** An old hash path: the same page under its feature's name, with the same query. */
function Moved({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: `/${to}`, search }} replace />;
}

function Home() {
  const me = useMe();
  const home = PAGES.find((page) => allowed(me.role, page.route));
  return home ? <Navigate to={`/${home.path}`} replace /> : null;
}

/**
 * The console's routes under the hash (`/admin/#/withdrawals?state=pending`): every page lazy, by role,
 * inside antd's App (the hosts of `App.useApp()`'s message and modal).
 */
export function ConsoleRoutes({ me }: { me: UserDetail }) {
  return (
    <AntApp>
      <HashRouter>
        <Routes>
          <Route element={<Shell me={me} />}>
            {PAGES.map((page) => (
              <Route key={page.path} path={page.path} element={<Guarded page={page} />} />
            ))}
            {Object.entries(OLD_PATHS).map(([old, now]) => (
              <Route key={old} path={old} element={<Moved to={now} />} />
            ))}
            <Route path="*" element={<Home />} />
          </Route>
        </Routes>
      </HashRouter>
    </AntApp>
  );
}
