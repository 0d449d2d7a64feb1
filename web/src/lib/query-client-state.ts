import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

// Whether the query client has loaded, and reads made before it did (see query-later.ts). A module of
// its own so that query-client.tsx can report itself here without an import cycle.

let client: QueryClient | undefined;
const seeds: ((client: QueryClient) => void)[] = [];
const listeners = new Set<() => void>();

/** Called once by lib/query-client.tsx when it is evaluated (however it was imported). */
export function queryClientLoaded(loaded: QueryClient): void {
  client = loaded;
  for (const seed of seeds.splice(0)) seed(loaded);
  for (const listener of listeners) listener();
}

/**
 * Hands reads made before the client loaded to its cache, as soon as it exists (at once if it does),
 * before any component or action uses it: a later invalidation then covers them too.
 */
export function seedQueryClient(seed: (client: QueryClient) => void): void {
  if (client) seed(client);
  else seeds.push(seed);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the query client has loaded; re-renders when it does. */
export function useQueryClientLoaded(): boolean {
  return useSyncExternalStore(subscribe, () => client !== undefined);
}
