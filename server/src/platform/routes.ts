import type { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import {
  envelopeOf,
  LOCALES,
  type Locale,
  pickLocale,
  type RouteBodyParsed,
  type RouteData,
  type RouteDef,
  type RouteHeadersParsed,
  type RouteName,
  type RouteParamsParsed,
  type RouteQueryParsed,
  type Routes,
  routes,
  translate,
} from '@kamai/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../db/client';
import { type AuthUser, authenticate, type SessionResolver } from './auth';
import { type ClientInfo, clientInfoOf } from './client-info';
import type { Config } from './config';
import { AppError } from './errors';
import { installMultipart } from './http-policy';
import type { ReplicaReads } from './replica-reads';
import { withRequestContext } from './request-context';
import { type SessionRead, sessionReadAnswer } from './session-read';

/** What every feature's `register(app, deps)` is given (some features take a few more). */
export interface FeatureDeps {
  /** The primary: every write, every transaction, and every read that must be current. */
  db: Db;
  /** Reads that may be a moment stale, on a replica when one is caught up enough (replica-reads.ts). */
  replica: ReplicaReads;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Who does an admin action, as the audit log records it. */
export interface Actor {
  id: number;
  requestId: string;
}

/**
 * The caller, set on `user` and `admin` routes only: the policy check has run before the handler, so
 * such a route's handler reads `ctx.user` and `ctx.actor` without checking them.
 */
type CallerOf<N extends RouteName> = Routes[N]['policy'] extends 'public'
  ? { user?: undefined; actor?: undefined }
  : {
      user: AuthUser;
      /** The user as the audit log names them: id and this request's id. */
      actor: Actor;
    };

export type HandlerContext<N extends RouteName> = RequestContext<N> & CallerOf<N>;

interface RequestContext<N extends RouteName> {
  body: RouteBodyParsed<N>;
  query: RouteQueryParsed<N>;
  params: RouteParamsParsed<N>;
  /** The headers the route declares (lower-case names), parsed by its schema. */
  headers: RouteHeadersParsed<N>;
  ip: string;
  /** The address, User-Agent and device id, as registration and login record them. */
  client: ClientInfo;
  locale: Locale;
  requestId: string;
  log: FastifyBaseLogger;
  /** Multipart routes: the first file part, or undefined when the request is not multipart. */
  file?: () => Promise<MultipartFile | undefined>;
  /** `rawBody` routes: the body's bytes as received (undefined when there was none). */
  rawBody?: Buffer;
  /** Every request header as Node received them (lower-case names), declared or not. */
  rawHeaders: Record<string, string | string[] | undefined>;
}

/** The answer of a route whose contract `produces` a body other than the envelope: streamed as it is read. */
export interface StreamAnswer {
  /** Offered to the browser as the download's name. */
  filename: string;
  body: Readable;
}
type Answer<N extends RouteName> = Routes[N] extends { produces: string } ? StreamAnswer : RouteData<N>;

export type Handler<N extends RouteName> = (ctx: HandlerContext<N>) => Promise<Answer<N>>;

/** Each route's handler: an ordinary one, or a session read (session-read.ts). */
export type Handlers = { [N in RouteName]?: Handler<N> | SessionRead<N> };

/** The first file part of a multipart request; a body that is not valid multipart is the client's error. */
async function firstFile(request: FastifyRequest): Promise<MultipartFile | undefined> {
  if (!request.isMultipart()) return undefined;
  try {
    return await request.file();
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status < 500) throw error;
    throw Object.assign(new AppError('validation_failed', { fields: { file: 'upload_file_missing' } }), {
      cause: error,
    });
  }
}

/** Deeper than any request of the contract; past it a body is refused before anything walks it. */
const MAX_DEPTH = 32;

/**
 * U+0000, which PostgreSQL text cannot store, or a lone UTF-16 surrogate (JSON's `"\ud800"`): no
 * character at all, which jsonb refuses ("invalid input syntax for type json", a 500 for an audit row
 * quoting it) and text would store as U+FFFD instead.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * Why a parsed body, query or params must be refused before validation, as the failing field's path:
 * a string (or key) holding what PostgreSQL cannot store (`unstorable`), or nesting past MAX_DEPTH.
 * Iterative, so a hostile document cannot exhaust the stack.
 */
export function unstorablePath(root: unknown): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path, depth } = item;
    if (typeof value === 'string') {
      if (unstorable(value)) return path || 'body';
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return path || 'body';
    for (const [key, inner] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (unstorable(key)) return here;
      stack.push({ value: inner, path: here, depth: depth + 1 });
    }
  }
  return undefined;
}

/** A route's success message in every locale, translated once when the route is registered. */
function successMessages(def: RouteDef) {
  const key = def.ok ?? 'ok';
  const messages = Object.fromEntries(LOCALES.map((locale) => [locale, translate(locale, key)])) as Record<
    Locale,
    string
  >;
  return <T>(locale: Locale, data: T) => ({ code: 200, message: messages[locale], key, data });
}

/** Accept-Language headers seen, with the locale each picks: clients send few distinct ones. */
const localeCache = new Map<string, Locale>();
const LOCALE_CACHE_MAX = 500;
function localeOf(header: string | undefined): Locale {
  if (header === undefined) return pickLocale(header);
  let locale = localeCache.get(header);
  if (locale === undefined) {
    locale = pickLocale(header);
    // Bounded: a client sending a new header each time must not grow it without end.
    if (localeCache.size >= LOCALE_CACHE_MAX) localeCache.clear();
    localeCache.set(header, locale);
  }
  return locale;
}

/**
 * Per app: the routes registered so far, each `registerRoutes` call's (one feature's) names, and who
 * finds a session (the auth feature says).
 */
const registries = new WeakMap<
  FastifyInstance,
  {
    names: Set<RouteName>;
    features: RouteName[][];
    resolveSession?: SessionResolver;
    wrote?: (user: number) => Promise<void>;
  }
>();

function registryOf(app: FastifyInstance) {
  let registry = registries.get(app);
  if (!registry) {
    registry = { names: new Set(), features: [] };
    registries.set(app, registry);
  }
  return registry;
}

/** Who finds the live session of a bearer token for every `user` and `admin` route (the auth feature). */
export function setSessionResolver(app: FastifyInstance, resolveSession: SessionResolver) {
  registryOf(app).resolveSession = resolveSession;
}

/**
 * Who is told that a signed-in caller's request that may write (any method but GET) ended, committed
 * or not: with read replicas, that caller's reads then stay on the primary for a while (replica-reads.ts).
 */
export function setWriteRecorder(app: FastifyInstance, wrote: (user: number) => Promise<void>) {
  registryOf(app).wrote = wrote;
}

/**
 * After every feature has registered: a route of the contract's table without a handler, or no
 * session resolver, is a programming error and stops the app from building.
 */
export function checkEveryRoute(app: FastifyInstance) {
  const registry = registryOf(app);
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    if (!registry.names.has(name)) throw new Error(`route ${name} (${def.method} ${def.path}) has no handler`);
  }
  if (!registry.resolveSession) throw new Error('no session resolver: the auth feature was not registered');
}

/**
 * The route names of each `registerRoutes` call so far, in order: one list per feature. Each feature's
 * routes carry its one OpenAPI tag (`def.tag`), a tag no other feature's routes carry
 * (docs/decisions/openapi-and-spectral.md; the OpenAPI test checks it).
 */
export function featureRoutes(app: FastifyInstance): readonly (readonly RouteName[])[] {
  return registryOf(app).features;
}

/**
 * Registers a feature's routes of the contract's table with their schemas and policy. A name
 * registered twice is a programming error.
 */
export function registerRoutes(app: FastifyInstance, handlers: Handlers) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const registry = registryOf(app);
  registry.features.push(Object.keys(handlers) as RouteName[]);
  const resolveSession: SessionResolver = (tokenHash) => {
    if (!registry.resolveSession) throw new Error('no session resolver: the auth feature was not registered');
    return registry.resolveSession(tokenHash);
  };
  for (const [name, entry] of Object.entries(handlers) as [RouteName, Handler<RouteName> | SessionRead<RouteName>][]) {
    const def = routes[name] as RouteDef | undefined;
    if (!def) throw new Error(`handler ${name} has no route in the contract's table`);
    if (registry.names.has(name)) throw new Error(`route ${name} registered twice`);
    registry.names.add(name);
    const envelope = successMessages(def);
    const handler = entry as Handler<RouteName>;
    // The one hook of a session read: its own answer in place of the pipeline below (session-read.ts).
    const read = sessionReadAnswer(name, def, entry, localeOf, envelope);
    // The route's answer, made once per route; the handler context has one shape on every route (no
    // spreads: an object literal with spreads is built property by property at run time).
    const ordinary = async (request: FastifyRequest, reply: FastifyReply) => {
      const locale = localeOf(request.headers['accept-language']);
      const result = await handler({
        body: request.body as never,
        query: request.query as never,
        params: request.params as never,
        headers: request.headers as never,
        // Undefined only on public routes, whose context type says so (CallerOf).
        user: request.authUser as AuthUser,
        actor: (request.authUser && { id: request.authUser.id, requestId: request.id }) as Actor,
        ip: request.ip,
        client: clientInfoOf(request),
        locale,
        requestId: request.id,
        log: request.log,
        file: def.multipart ? () => firstFile(request) : undefined,
        rawBody: def.rawBody && Buffer.isBuffer(request.body) ? request.body : undefined,
        rawHeaders: request.headers,
      });
      if (def.produces) {
        const { filename, body } = result as unknown as StreamAnswer;
        reply.header('content-type', `${def.produces}; charset=utf-8`);
        reply.header('content-disposition', `attachment; filename="${filename}"`);
        reply.header('cache-control', 'no-store');
        return reply.send(body);
      }
      if (def.raw) return reply.type('text/plain; charset=utf-8').send(String(result));
      return envelope(locale, result as RouteData<RouteName>);
    };
    const respond = read ?? ordinary;
    // Recorded before the answer leaves, so the caller's next request already reads the primary.
    const answer =
      def.method === 'GET' || def.policy === 'public'
        ? respond
        : async (request: FastifyRequest, reply: FastifyReply) => {
            try {
              return await respond(request, reply);
            } finally {
              const user = request.authUser?.id;
              if (registry.wrote && user !== undefined) await registry.wrote(user);
            }
          };
    const route: Parameters<typeof typed.route>[0] = {
      method: def.method,
      url: def.path,
      config: { policy: def.policy, routeName: name },
      schema: {
        summary: def.summary,
        tags: [def.tag],
        ...(def.policy === 'public' ? {} : { security: [{ bearer: [] }] }),
        ...(def.body ? { body: def.body } : {}),
        ...(def.multipart ? { consumes: ['multipart/form-data'] } : {}),
        ...(def.query ? { querystring: def.query } : {}),
        ...(def.params ? { params: def.params } : {}),
        ...(def.headers ? { headers: def.headers } : {}),
        // A streamed body is not serialised: failures before it starts still answer the envelope.
        // A raw answer is plain text, so it has no JSON response schema to serialise through either.
        ...(def.produces ? { produces: [def.produces] } : def.raw ? {} : { response: { 200: envelopeOf(def.data) } }),
      },
      // Before the body is parsed: an unauthenticated caller learns nothing about the body's rules.
      // Public routes have no such hook: it would only cost them a promise per request.
      // A session read has no hook (session-read.ts).
      ...(def.policy === 'public' || read
        ? {}
        : {
            onRequest: async (request: FastifyRequest) => {
              request.authUser = await authenticate(request, def, resolveSession);
            },
          }),
      // Only where there is input to walk: a hook costs every request of its route a promise.
      ...(!def.rawBody && (def.body || def.query || def.params || def.multipart)
        ? {
            preValidation: async (request: FastifyRequest) => {
              const field =
                unstorablePath(request.params) ?? unstorablePath(request.query) ?? unstorablePath(request.body);
              if (field) throw new AppError('validation_failed', { fields: { [field]: 'validation_failed' } });
            },
          }
        : {}),
      handler: (request, reply) => withRequestContext(request, reply, answer),
    };
    if (def.multipart) {
      // Multipart's parser and hooks only where a route takes a file (http-policy.ts).
      app.register(async (scope) => {
        await installMultipart(scope);
        scope.withTypeProvider<ZodTypeProvider>().route(route);
      });
      continue;
    }
    if (!def.rawBody) {
      typed.route(route);
      continue;
    }
    // A route that takes the body's bytes unparsed lives in a scope of its own whose only content-type
    // parser hands the handler a Buffer: nothing reads the bytes before the handler checks them.
    app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.withTypeProvider<ZodTypeProvider>().route(route);
    });
  }
}
