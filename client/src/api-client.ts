import {
  DEVICE_ID_HEADER,
  type Locale,
  REQUEST_TIMEOUT_MS,
  type RouteBody,
  type RouteData,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  routes,
} from '@kamai/contract';
import { ApiError } from './api-error';
import { deviceId } from './device-id';
import type { TokenStore } from './token-store';

/** Client-side failures (no envelope); each app translates them (`clientMessage`). */
export type ClientErrorKey = 'network' | 'timeout' | 'failed';

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
  /** Extra request headers the route declares (e.g. `Idempotency-Key` on `withdrawAdd`). */
  headers?: Record<string, string>;
  /** A token to send instead of the stored session (the console checks a role before keeping it). */
  token?: string;
  signal?: AbortSignal;
}

/** What differs between the apps that call the API. */
export interface ApiClientConfig {
  /** Where this app keeps its session. */
  tokens: TokenStore;
  /** The language the user chose, sent as Accept-Language (server texts come back in it). */
  locale: () => Locale;
  /** The text of a failure that has no envelope, in the current language. */
  clientMessage: (key: ClientErrorKey) => string;
}

function pathOf(path: string, params: unknown): string {
  if (!params || typeof params !== 'object') return path;
  const values = params as Record<string, unknown>;
  return path.replace(/:(\w+)/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(String(values[name])),
  );
}

/** The path with the query's set values (an empty text is left out, as a cleared filter). */
export function urlOf(path: string, query: unknown): string {
  if (!query || typeof query !== 'object') return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function isEnvelope(value: unknown): value is { code: number; message: string; key: string; data: unknown } {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/** One app's typed client over the contract's route table. */
export function createApiClient({ tokens, locale, clientMessage }: ApiClientConfig) {
  const sessionListeners = new Set<() => void>();

  function clientError(key: ClientErrorKey, code = 0): ApiError {
    return new ApiError({ code, key, message: clientMessage(key) });
  }

  /** Subscribes to "the server ended this session" (a 401 on a call that carried a token). */
  function onSessionEnded(listener: () => void): () => void {
    sessionListeners.add(listener);
    return () => {
      sessionListeners.delete(listener);
    };
  }

  /** The headers every call sends: the session, the user's language and this browser's device id. */
  function baseHeaders(token = tokens.get()): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': locale(),
      [DEVICE_ID_HEADER]: deviceId(),
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /** A 401 on a call that carried the stored token ends the session (back to the login page). */
  function endSessionOn401(code: number): void {
    if (code === 401 && tokens.get()) {
      tokens.clear();
      for (const listener of sessionListeners) listener();
    }
  }

  /**
   * Sends a contract route's request and reads its answer with `read` (both within the request timeout);
   * a failure to reach the server or to read the answer becomes ApiError('network' / 'timeout').
   */
  async function send<N extends RouteName, T>(
    name: N,
    options: CallOptions<N>,
    accept: string,
    read: (response: Response) => Promise<T>,
  ): Promise<{ response: Response; body: T }> {
    const route = routes[name];
    const headers: Record<string, string> = {
      ...options.headers,
      ...baseHeaders(options.token ?? tokens.get()),
      Accept: accept,
    };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, REQUEST_TIMEOUT_MS);
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort);

    try {
      const response = await fetch(urlOf(pathOf(route.path, options.params), options.query), {
        method: route.method,
        headers,
        body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        signal: controller.signal,
      });
      return { response, body: await read(response) };
    } catch (error) {
      if (timedOut) throw clientError('timeout');
      if (options.signal?.aborted) throw error;
      throw clientError('network');
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    }
  }

  /** The error for an answer that is not a success envelope (a 401 on the stored session ends it). */
  function refusal<N extends RouteName>(body: unknown, status: number, options: CallOptions<N>): ApiError {
    if (!isEnvelope(body)) return clientError('failed', status);
    // Only the stored session ends: a 401 for a token being tried (options.token) is the caller's to handle.
    if (options.token === undefined) endSessionOn401(body.code);
    return new ApiError(body);
  }

  /** Calls a contract route and returns the envelope's data with the server's message, or throws ApiError. */
  async function apiRequest<N extends RouteName>(
    name: N,
    options: CallOptions<N> = {},
  ): Promise<ApiSuccess<RouteData<N>>> {
    const { response, body } = await send(name, options, 'application/json', (r) =>
      r.json().catch((): unknown => undefined),
    );
    if (!isEnvelope(body) || body.code !== 200) throw refusal(body, response.status, options);
    // The server checks every response against the route's data schema before sending it.
    return { data: body.data as RouteData<N>, message: body.message, key: body.key };
  }

  /**
   * Calls a route that answers a file (`produces`, e.g. a CSV export) and returns it; a refusal comes
   * as the usual envelope and is thrown as ApiError, exactly as apiRequest does.
   */
  async function apiFile<N extends RouteName>(name: N, options: CallOptions<N> = {}): Promise<Blob> {
    const produces = (routes[name] as { produces?: string }).produces ?? 'application/octet-stream';
    const { response, body } = await send(name, options, `${produces}, application/json`, async (r) => {
      const type = r.headers.get('content-type') ?? '';
      return r.ok && type.includes(produces) ? r.blob() : r.json().catch((): unknown => undefined);
    });
    if (body instanceof Blob) return body;
    throw refusal(body, response.status, options);
  }

  /** Like apiRequest, for callers that need only the data. */
  async function apiCall<N extends RouteName>(name: N, options: CallOptions<N> = {}): Promise<RouteData<N>> {
    return (await apiRequest(name, options)).data;
  }

  /** The text to show for a failed action: the server's translated message, else a generic one. */
  function messageOf(error: unknown): string {
    return error instanceof ApiError ? error.message : clientMessage('failed');
  }

  return { apiRequest, apiCall, apiFile, messageOf, baseHeaders, endSessionOn401, onSessionEnded };
}

export type ApiClient = ReturnType<typeof createApiClient>;
