import { ApiError, urlOf } from '@kamai/client';
import { type RouteName, type RouteQuery, routes } from '@kamai/contract';
import { i18n } from '../i18n';
import { baseHeaders, endSessionOn401 } from './api';

/** Fetches a CSV route with the session's Authorization header and saves the answer as `filename`. */
export async function downloadCsv<N extends RouteName>(name: N, query: RouteQuery<N>, filename: string): Promise<void> {
  const response = await fetch(urlOf(routes[name].path, query), { headers: { ...baseHeaders(), Accept: 'text/csv' } });
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/csv')) {
    const body = (await response.json().catch(() => undefined)) as
      | { code: number; key: string; message: string }
      | undefined;
    if (body && typeof body.code === 'number') {
      endSessionOn401(body.code);
      throw new ApiError(body);
    }
    throw new ApiError({ code: response.status, key: 'failed', message: i18n.t('request.failed') });
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
