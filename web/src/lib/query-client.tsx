import { ApiError } from '@kamai/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClientLoaded } from './query-client-state';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx answer will not change on retry; network trouble and 5xx may.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.code >= 400 && error.code < 500),
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

queryClientLoaded(queryClient);

/**
 * Every part of the app that fetches mounts this around itself, all with the one client (one cache).
 * It is not at the root so that React Query stays out of the first page (query-later.ts).
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
