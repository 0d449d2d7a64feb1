// Exists only for speed: benchmark 2, docs/performance.md ("Benchmark 2: authenticated reads"). The
// second kind of handler `registerRoutes` (routes.ts) accepts, and its answer: the route hook that
// replaces the policy check and the handler context on user/detail and task/list
// (docs/decisions/authenticated-reads.md).
import type { Locale, RouteData, RouteDef, RouteName } from '@kamai/contract';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { bearerHash } from './auth';
import { AppError } from './errors';

export interface SessionReadContext {
  /** SHA-256 of the bearer token: the handler's query finds the live session by it. */
  sessionHash: string;
  locale: Locale;
  requestId: string;
  log: FastifyBaseLogger;
}

/**
 * A `user` route's read that checks the caller's session in the same query that reads its data: one
 * database round trip instead of two. Its query must use `liveSessionOf` (sessions.queries.ts), the
 * one definition of a live session, and the handler answers undefined when it finds none: the route
 * then answers `unauthorized`. Only for routes without body, query, params or headers, so no input
 * rule is checked before the session is known. The route awaits the handler's promise itself, so a
 * handler that only hands on its query's promise need not be `async`.
 */
export interface SessionRead<N extends RouteName> {
  sessionRead: (ctx: SessionReadContext) => Promise<RouteData<N> | undefined>;
}

export function sessionRead<N extends RouteName>(read: SessionRead<N>['sessionRead']): SessionRead<N> {
  return { sessionRead: read };
}

/**
 * The answer of a route whose handler is a session read, or undefined for an ordinary handler. Such a
 * route has no `onRequest` policy hook and no handler context: its read hashes the token and checks the
 * session in its own query. A session read on a route that is not a `user` route without input is a
 * programming error.
 */
export function sessionReadAnswer<T>(
  name: RouteName,
  def: RouteDef,
  entry: object,
  localeOf: (header: string | undefined) => Locale,
  envelope: (locale: Locale, data: unknown) => T,
): ((request: FastifyRequest) => Promise<T>) | undefined {
  if (typeof entry === 'function') return undefined;
  const read = (entry as SessionRead<RouteName>).sessionRead;
  if (def.policy !== 'user' || def.body || def.query || def.params || def.headers || def.multipart) {
    throw new Error(`route ${name}: a session read is only for user routes without input`);
  }
  return async (request) => {
    // Hashed where it is used: a request without a token is refused before any query.
    const sessionHash = bearerHash(request);
    const locale = localeOf(request.headers['accept-language']);
    const data = await read({ sessionHash, locale, requestId: request.id, log: request.log });
    if (data === undefined) throw new AppError('unauthorized');
    return envelope(locale, data);
  };
}
