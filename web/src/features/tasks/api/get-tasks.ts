import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { taskListQueryOptions } from './task-list-query';

export { getTasks, taskListKey, taskListQueryOptions } from './task-list-query';

export function useTasks() {
  useTranslation(); // re-render, and so refetch, when the language changes
  return useQuery(taskListQueryOptions(currentLocale()));
}
