import type { Locale } from '@kamai/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

// The read and its cache entry, without TanStack Query's hooks: Home's first paint makes this read
// before the library has loaded (app/routes/home-content.tsx) and hands it to the cache later.

/** Titles and descriptions come in the request's language, so each language has its own cache entry. */
export const taskListKey = (locale: Locale) => ['tasks', 'list', locale] as const;

export function getTasks(signal?: AbortSignal) {
  return apiCall('taskList', { signal });
}

export function taskListQueryOptions(locale: Locale) {
  return queryOptions({ queryKey: taskListKey(locale), queryFn: ({ signal }) => getTasks(signal) });
}
