import {
  REQUEST_TIMEOUT_MS,
  type RouteBody,
  type RouteData,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  routes,
} from '@kamai/contract';
import { currentLocale, i18n } from '../i18n';
import { ApiError } from './api-error';
import { clearToken, getToken } from './auth-token';
import { sessionEnded } from './session-events';

/** Client-side failures (no envelope); their texts live in the `common` namespace under `request`. */
type ClientErrorKey = 'network' | 'timeout' | 'failed';

export interface ApiSuccess<T> {
  data: T;
  /** The server's confirmation text in the current language. */
  message: string;
  key: string;
}

export interface CallOptions<N extends RouteName> {
  body?: RouteBody<N>;
  query?: RouteQuery<N>;
  /** Fills the path's `:name` parts. */
  params?: RouteParams<N>;
  /** Extra request headers the route declares (e.g. `Idempotency-Key` on `withdrawAdd`). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function pathOf(path: string, params: unknown): string {
  if (!params || typeof params !== 'object') return path;
  const values = params as Record<string, unknown>;
  return path.replace(/:(\w+)/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(String(values[name])),
  );
}

function urlOf(path: string, query: unknown): string {
  if (!query || typeof query !== 'object') return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function clientError(key: ClientErrorKey, code = 0): ApiError {
  return new ApiError({ code, key, message: i18n.t(`common:request.${key}`) });
}

function isEnvelope(value: unknown): value is { code: number; message: string; key: string; data: unknown } {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/** Calls a contract route and returns the envelope's data with the server's message, or throws ApiError. */
export async function apiRequest<N extends RouteName>(
  name: N,
  options: CallOptions<N> = {},
): Promise<ApiSuccess<RouteData<N>>> {
  const route = routes[name];
  const token = getToken();
  const headers: Record<string, string> = {
    ...options.headers,
    Accept: 'application/json',
    'Accept-Language': currentLocale(),
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort);

  let response: Response;
  let body: unknown;
  try {
    response = await fetch(urlOf(pathOf(route.path, options.params), options.query), {
      method: route.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    if (timedOut) throw clientError('timeout');
    if (options.signal?.aborted) throw error;
    throw clientError('network');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
  }

  if (!isEnvelope(body)) throw clientError('failed', response.status);
  if (body.code !== 200) {
    if (body.code === 401 && token) {
      clearToken();
      sessionEnded();
    }
    throw new ApiError(body);
  }
  // The server checks every response against the route's data schema before sending it.
  return { data: body.data as RouteData<N>, message: body.message, key: body.key };
}

/** Like apiRequest, for callers that need only the data. */
export async function apiCall<N extends RouteName>(name: N, options: CallOptions<N> = {}): Promise<RouteData<N>> {
  return (await apiRequest(name, options)).data;
}

/** The text to show for a failed action: the server's translated message, else a generic one. */
export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : i18n.t('common:request.failed');
}
