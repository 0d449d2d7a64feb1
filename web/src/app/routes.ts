import type { PageSlug } from '@kamai/contract';
import { type ComponentType, createElement, type LazyExoticComponent, lazy } from 'react';
import { type AppPath, paths } from '../config/paths';
import { initI18n } from '../i18n';
import type { en } from '../i18n/resources';
import { getToken } from '../lib/api';
import { matchesPath } from '../lib/router';

/** Each screen's one name (`common:screens`): its title, its menu row, its tab and every text that points to it. */
export type ScreenKey = keyof (typeof en)['common']['screens'];

export interface AppRoute {
  path: AppPath;
  /** The screen's name: the title bar, the document title and the row or tab that opens it show it. */
  titleKey: ScreenKey;
  /** The page needs a logged-in user; a logged-out visitor gets the login form instead. */
  auth: boolean;
  /** `tab`: header, language picker and tab bar; `page`: title bar with a back arrow. */
  layout: 'tab' | 'page';
  /** Each page is a chunk of its own, fetched on first visit. */
  Page: LazyExoticComponent<ComponentType>;
  /** Starts fetching the page's chunks before React asks for them (main.tsx, for the address the app opens on). */
  preload: () => void;
}

/**
 * A page as a lazy component and the function that starts its load early. main.tsx calls `preload`
 * for the first address, beside the i18n start and the first render, so the page's chunks do not wait
 * for them: one round trip fewer before the first route's content (Lighthouse's LCP counts each).
 */
function lazyPage(load: () => Promise<ComponentType>): Pick<AppRoute, 'Page' | 'preload'> {
  let loading: Promise<ComponentType> | undefined;
  const start = () => {
    loading ??= load();
    return loading;
  };
  return {
    Page: lazy(async () => ({ default: await start() })),
    preload: () => void start(),
  };
}

/**
 * A page other than Home: it also waits for every English namespace (i18n/resources-later.ts), which
 * Home's first screen leaves out, so no text of the page renders as its key.
 */
function page(load: () => Promise<ComponentType>): Pick<AppRoute, 'Page' | 'preload'> {
  return lazyPage(async () => (await Promise.all([load(), initI18n()]))[0]);
}

/**
 * A page that fetches: its chunk and React Query load together on the first visit, and the page is
 * mounted inside the one query client's provider. Not at the root, so that React Query stays out of
 * the first page a visitor loads (Home's welcome fetches nothing).
 */
function fetching(load: () => Promise<ComponentType>): Pick<AppRoute, 'Page' | 'preload'> {
  return page(async () => {
    const [{ QueryProvider }, Page] = await Promise.all([import('../lib/query-client'), load()]);
    return () => createElement(QueryProvider, null, createElement(Page));
  });
}

/** Help, terms and privacy: the one account page that shows a text the console edits. */
async function deletedPage(): Promise<ComponentType> {
  return (await import('../features/account')).AccountDeletedPage;
}

async function infoPage(slug: PageSlug): Promise<ComponentType> {
  const { InfoPage } = await import('../features/account');
  return () => createElement(InfoPage, { slug });
}

/**
 * Home, and for a logged-in user the content it imports lazily (balance, tasks, React Query) at the
 * same time rather than after Home's own chunk has run.
 */
function homePage(): Promise<ComponentType> {
  if (getToken()) void import('./routes/home-content');
  return import('./routes/home-tab').then((m) => m.default);
}

/** The one route table (spec section 2). */
export const appRoutes: AppRoute[] = [
  {
    path: paths.home,
    titleKey: 'home',
    auth: false,
    layout: 'tab',
    ...lazyPage(homePage),
  },
  {
    path: paths.add,
    titleKey: 'add',
    auth: true,
    layout: 'tab',
    ...fetching(() => import('../features/linked-accounts').then((m) => m.AddPage)),
  },
  {
    path: paths.user,
    titleKey: 'user',
    auth: true,
    layout: 'tab',
    ...fetching(() => import('./routes/user-tab').then((m) => m.default)),
  },
  {
    path: paths.notices,
    titleKey: 'notices',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/notices').then((m) => m.NoticesPage)),
  },
  {
    path: paths.income,
    titleKey: 'income',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/wallet').then((m) => m.IncomePage)),
  },
  {
    path: paths.invites,
    titleKey: 'invites',
    auth: true,
    layout: 'page',
    ...fetching(() => import('./routes/invites-route').then((m) => m.default)),
  },
  {
    path: paths.reviews,
    titleKey: 'reviews',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/withdrawals').then((m) => m.WithdrawalsPage)),
  },
  {
    path: paths.onlineAccounts,
    titleKey: 'onlineAccounts',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/linked-accounts').then((m) => m.OnlineAccountsPage)),
  },
  {
    path: paths.payoutMethods,
    titleKey: 'payoutMethods',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/payout-accounts').then((m) => m.PayoutMethodsPage)),
  },
  {
    path: paths.survey,
    titleKey: 'survey',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/survey').then((m) => m.SurveyPage)),
  },
  {
    path: paths.intro,
    titleKey: 'intro',
    auth: true,
    layout: 'page',
    ...fetching(() => import('./routes/intro-route').then((m) => m.default)),
  },
  {
    path: paths.help,
    titleKey: 'help',
    auth: false,
    layout: 'page',
    ...fetching(() => infoPage('help')),
  },
  {
    path: paths.terms,
    titleKey: 'terms',
    auth: false,
    layout: 'page',
    ...fetching(() => infoPage('terms')),
  },
  {
    path: paths.privacy,
    titleKey: 'privacy',
    auth: false,
    layout: 'page',
    ...fetching(() => infoPage('privacy')),
  },
  {
    path: paths.complaints,
    titleKey: 'complaints',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/complaints').then((m) => m.ComplaintsPage)),
  },
  {
    path: paths.complaint,
    titleKey: 'complaint',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/complaints').then((m) => m.ComplaintPage)),
  },
  {
    path: paths.complaintNew,
    titleKey: 'complaintNew',
    auth: true,
    layout: 'page',
    ...fetching(() => import('../features/complaints').then((m) => m.ComplaintNewPage)),
  },
  {
    path: paths.accountDeleted,
    titleKey: 'accountDeleted',
    auth: false,
    layout: 'page',
    ...page(deletedPage),
  },
];

/** The table entry of an address (matched like the router: case-insensitive, trailing slash allowed). */
export function routeOf(pathname: string): AppRoute | undefined {
  return appRoutes.find((route) => matchesPath(route.path, pathname));
}
