import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { PageLayout } from './layouts/page-layout';
import { RootLayout } from './layouts/root-layout';
import { TabLayout } from './layouts/tab-layout';
import { type AppRoute, appRoutes } from './routes';

const NotFoundPage = lazy(() => import('./routes/not-found'));

function pageRoute({ path, Page }: AppRoute) {
  return (
    <Route
      key={path}
      path={path}
      element={
        <Suspense fallback={null}>
          <Page />
        </Suspense>
      }
    />
  );
}

/**
 * Declarative routes from the one route table. The data router (createBrowserRouter) would add ~16 KB
 * gzip to the first page for loaders and actions this app does not use; React Query fetches the data.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<RootLayout />}>
          <Route path={paths.root} element={<Navigate to={paths.home} replace />} />
          <Route element={<TabLayout />}>{appRoutes.filter((r) => r.layout === 'tab').map(pageRoute)}</Route>
          <Route element={<PageLayout />}>{appRoutes.filter((r) => r.layout === 'page').map(pageRoute)}</Route>
          <Route
            path="*"
            element={
              <Suspense fallback={null}>
                <NotFoundPage />
              </Suspense>
            }
          />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
