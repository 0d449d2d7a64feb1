import { seedQueryClient, useQueryClientLoaded } from './query-client-state';

// TanStack Query is not part of Home's first paint: Home shows its first reads without it
// (app/routes/home-content.tsx) and the library loads with the first page, form or action that needs
// it. This module is the light side of that: it loads the client, and (query-client-state.ts) knows
// whether it has loaded and hands it data fetched before it was there. It imports nothing of TanStack
// Query at run time.

export { seedQueryClient, useQueryClientLoaded };

/** Loads the query client (and TanStack Query) if it has not loaded yet. */
export function loadQueryClient(): Promise<typeof import('./query-client')> {
  return import('./query-client');
}

/** Invalidates cached queries (all, or those under `queryKey`), loading the client first if need be. */
export async function invalidateQueries(queryKey?: readonly unknown[]): Promise<void> {
  const { queryClient } = await loadQueryClient();
  await queryClient.invalidateQueries(queryKey ? { queryKey } : undefined);
}
