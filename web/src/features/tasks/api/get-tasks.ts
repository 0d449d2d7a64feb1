import type { Locale } from '@kamai/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { apiCall } from '../../../lib/api';

/** Titles and descriptions come in the request's language, so each language has its own cache entry. */
export const taskListKey = (locale: Locale) => ['tasks', 'list', locale] as const;

export function getTasks(signal?: AbortSignal) {
  return apiCall('taskList', { signal });
}

export function taskListQueryOptions(locale: Locale) {
  return queryOptions({ queryKey: taskListKey(locale), queryFn: ({ signal }) => getTasks(signal) });
}

export function useTasks() {
  useTranslation(); // re-render, and so refetch, when the language changes
  return useQuery(taskListQueryOptions(currentLocale()));
}
