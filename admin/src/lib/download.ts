import type { RouteName, RouteQuery } from '@kamai/contract';
import { apiFile } from './api';

/**
 * Fetches a file route (a CSV export) through the shared client, so a refusal comes back as the same
 * translated ApiError as any call and a 401 ends the session, and saves the answer as `filename`.
 */
export async function downloadFile<N extends RouteName>(
  name: N,
  query: RouteQuery<N>,
  filename: string,
): Promise<void> {
  const blob = await apiFile(name, { query });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
