import type { UserDetail } from '@kamai/contract';
import { App as AntApp, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { allowed, useMe } from '../lib/roles';
import { type ConsolePage, OLD_PATHS, PAGES } from './pages';
import { Shell } from './shell';
// antd's styles for the console's pages, fetched with this chunk (app/theme.ts: antd's zero-runtime mode).
import '../antd/console.css';

const Forbidden = lazy(() => import('./forbidden').then((m) => ({ default: m.Forbidden })));

/** A page the role may not open (an old link, a link from an admin) is refused in words, not swapped. */
function Guarded({ page }: { page: ConsolePage }) {
  const me = useMe();
  return <Suspense fallback={<Spin />}>{allowed(me.role, page.route) ? <page.Page /> : <Forbidden />}</Suspense>;
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
