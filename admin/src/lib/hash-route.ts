import { useSyncExternalStore } from 'react';

export const PAGES = [
  'dashboard',
  'withdrawals',
  'users',
  'tasks',
  'notices',
  'settings',
  'linked',
  'outbox',
  'audit',
] as const;
export type PageName = (typeof PAGES)[number];

function read(): PageName | undefined {
  const name = window.location.hash.replace(/^#\/?/, '');
  return PAGES.find((page) => page === name);
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The console's page from the URL hash (`/admin/#/withdrawals`), so a reload stays put. */
export function usePage(): PageName | undefined {
  return useSyncExternalStore(subscribe, read);
}

export function goTo(page: PageName): void {
  window.location.hash = `/${page}`;
}
