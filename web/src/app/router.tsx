import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { paths } from '../config/paths';
import { BrowserRouter, Layout, Navigate, pathPattern } from '../lib/router';
import { useCurrentRoute } from './current-route';
import { PageLayout } from './layouts/page-layout';
import { RootLayout } from './layouts/root-layout';
import { TabLayout } from './layouts/tab-layout';
import { appRoutes } from './routes';

const NotFoundPage = lazy(() => import('./routes/not-found'));

const tabPaths = pathPattern(...appRoutes.filter((r) => r.layout === 'tab').map((r) => r.path));
const pagePaths = pathPattern(...appRoutes.filter((r) => r.layout === 'page').map((r) => r.path));

/**
 * The page in view, in the one Suspense boundary of its layout: moving between two pages of a layout
 * keeps the layout and the boundary, so the page in view stays until the next one's chunk is there.
 */
function CurrentPage() {
  const route = useCurrentRoute();
  return <Suspense fallback={null}>{route && <route.Page />}</Suspense>;
}

/** The routes of the one route table (routes.ts), matched by wouter inside the three layouts. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Layout element={<RootLayout />}>
        <Switch>
          <Route path={paths.root}>
            <Navigate to={paths.home} replace />
          </Route>
          <Route path={tabPaths}>
            <Layout element={<TabLayout />}>
              <CurrentPage />
            </Layout>
          </Route>
          <Route path={pagePaths}>
            <Layout element={<PageLayout />}>
              <CurrentPage />
            </Layout>
          </Route>
          <Route>
            <Suspense fallback={null}>
              <NotFoundPage />
            </Suspense>
          </Route>
        </Switch>
      </Layout>
    </BrowserRouter>
  );
}
