import {
  envelopeOf,
  type Locale,
  pickLocale,
  type RouteBodyParsed,
  type RouteData,
  type RouteDef,
  type RouteName,
  type RouteParamsParsed,
  type RouteQueryParsed,
  routes,
  translate,
} from '@kamai/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuthUser, authenticate, type SessionResolver } from './auth';

export interface HandlerContext<N extends RouteName> {
  body: RouteBodyParsed<N>;
  query: RouteQueryParsed<N>;
  params: RouteParamsParsed<N>;
  /** Set on `user` and `admin` routes. */
  user: AuthUser | undefined;
  ip: string;
  locale: Locale;
  requestId: string;
  log: FastifyBaseLogger;
}

export type Handler<N extends RouteName> = (ctx: HandlerContext<N>) => Promise<RouteData<N>>;
export type Handlers = { [N in RouteName]?: Handler<N> };

/** The caller of a user/admin route; the policy check has already run. */
export function caller(ctx: { user: AuthUser | undefined }): AuthUser {
  if (!ctx.user) throw new Error('caller() used on a public route');
  return ctx.user;
}

/**
 * Registers every route of the contract's table with its schemas and policy. A table entry
 * without a handler is a programming error and stops the app from building.
 */
export function registerRoutes(app: FastifyInstance, handlers: Handlers, resolveSession: SessionResolver) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    const handler = handlers[name] as Handler<RouteName> | undefined;
    if (!handler) throw new Error(`route ${name} (${def.method} ${def.path}) has no handler`);
    typed.route({
      method: def.method,
      url: def.path,
      config: { policy: def.policy },
      schema: {
        summary: def.summary,
        tags: [def.tag],
        ...(def.policy === 'public' ? {} : { security: [{ bearer: [] }] }),
        ...(def.body ? { body: def.body } : {}),
        ...(def.query ? { querystring: def.query } : {}),
        ...(def.params ? { params: def.params } : {}),
        response: { 200: envelopeOf(def.data) },
      },
      // Before the body is parsed: an unauthenticated caller learns nothing about the body's rules.
      // Public routes have no such hook: it would only cost them a promise per request.
      ...(def.policy === 'public'
        ? {}
        : {
            onRequest: async (request: FastifyRequest) => {
              request.authUser = await authenticate(request, def.policy, resolveSession);
            },
          }),
      handler: async (request) => {
        const locale = pickLocale(request.headers['accept-language']);
        const data = await handler({
          body: request.body as never,
          query: request.query as never,
          params: request.params as never,
          user: request.authUser,
          ip: request.ip,
          locale,
          requestId: request.id,
          log: request.log,
        });
        const key = def.ok ?? 'ok';
        return { code: 200, message: translate(locale, key), key, data };
      },
    });
  }
}
