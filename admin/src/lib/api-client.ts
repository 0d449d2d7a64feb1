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

/** Client-side failures (no envelope); their texts live under `request` in the locale files. */
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
  /** A multipart body (routes with `multipart`), sent instead of JSON. */
  form?: FormData;
  /** A token to send instead of the stored session (the login page checks a role before keeping it). */
  token?: string;
  signal?: AbortSignal;
}

function pathOf(path: string, params: unknown): string {
  if (!params || typeof params !== 'object') return path;
  const values = params as Record<string, unknown>;
  return path.replace(/:(\w+)/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(String(values[name])),
  );
}

export function urlOf(path: string, query: unknown): string {
  if (!query || typeof query !== 'object') return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function clientError(key: ClientErrorKey, code = 0): ApiError {
  return new ApiError({ code, key, message: i18n.t(`request.${key}`) });
}

function isEnvelope(value: unknown): value is { code: number; message: string; key: string; data: unknown } {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/** The headers every call sends: the session and the operator's language. */
export function baseHeaders(token = getToken()): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLocale() };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** A 401 on a call that carried a token ends the session (back to the login page). */
export function endSessionOn401(code: number): void {
  if (code === 401 && getToken()) {
    clearToken();
    sessionEnded();
  }
}

/** Calls a contract route and returns the envelope's data with the server's message, or throws ApiError. */
export async function apiRequest<N extends RouteName>(
  name: N,
  options: CallOptions<N> = {},
): Promise<ApiSuccess<RouteData<N>>> {
  const route = routes[name];
  const headers = baseHeaders(options.token ?? getToken());
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
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
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
    endSessionOn401(body.code);
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
  return error instanceof ApiError ? error.message : i18n.t('request.failed');
}
