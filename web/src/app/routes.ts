import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { matchPath } from 'react-router';
import { type AppPath, paths } from '../config/paths';
import type { en } from '../i18n/resources';

export type PageTitleKey = keyof (typeof en)['common']['pages'];

export interface AppRoute {
  path: AppPath;
  titleKey: PageTitleKey;
  /** The page needs a logged-in user; a logged-out visitor gets the login form instead. */
  auth: boolean;
  /** `tab`: header, language picker and tab bar; `page`: title bar with a back arrow. */
  layout: 'tab' | 'page';
  /** Each page is a chunk of its own, fetched on first visit. */
  Page: LazyExoticComponent<ComponentType>;
}

/** The one route table (spec section 2). */
export const appRoutes: AppRoute[] = [
  {
    path: paths.home,
    titleKey: 'home',
    auth: false,
    layout: 'tab',
    Page: lazy(() => import('./routes/home-tab')),
  },
  { path: paths.add, titleKey: 'add', auth: true, layout: 'tab', Page: lazy(() => import('./routes/add-route')) },
  { path: paths.user, titleKey: 'user', auth: true, layout: 'tab', Page: lazy(() => import('./routes/user-tab')) },
  {
    path: paths.notices,
    titleKey: 'notices',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/notices-route')),
  },
  {
    path: paths.income,
    titleKey: 'income',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/income-route')),
  },
  {
    path: paths.invites,
    titleKey: 'invites',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/invites-route')),
  },
  {
    path: paths.reviews,
    titleKey: 'reviews',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/reviews-route')),
  },
  {
    path: paths.onlineAccounts,
    titleKey: 'onlineAccounts',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/online-accounts-route')),
  },
  {
    path: paths.payoutMethods,
    titleKey: 'payoutMethods',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/payout-methods-route')),
  },
  {
    path: paths.survey,
    titleKey: 'survey',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/survey-route')),
  },
  {
    path: paths.intro,
    titleKey: 'intro',
    auth: true,
    layout: 'page',
    Page: lazy(() => import('./routes/intro-route')),
  },
  { path: paths.help, titleKey: 'help', auth: false, layout: 'page', Page: lazy(() => import('./routes/help-route')) },
  {
    path: paths.terms,
    titleKey: 'terms',
    auth: false,
    layout: 'page',
    Page: lazy(() => import('./routes/terms-route')),
  },
  {
    path: paths.privacy,
    titleKey: 'privacy',
    auth: false,
    layout: 'page',
    Page: lazy(() => import('./routes/privacy-route')),
  },
];

/** The table entry of an address (matched like the router: case-insensitive, trailing slash allowed). */
export function routeOf(pathname: string): AppRoute | undefined {
  return appRoutes.find((route) => matchPath({ path: route.path, end: true }, pathname));
}
