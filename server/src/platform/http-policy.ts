import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { BODY_LIMIT_BYTES, UPLOAD_MAX_BYTES } from '@kamai/contract';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Config } from './config';
import { installErrorHandler, sendError } from './error-handler';
import { lazyChildLogger } from './lazy-logger';
import { securityHeaders } from './security-headers';

/** Which answers are logged: 5xx and those slower than `slowMs` always, a `sampleRate` share of the rest. */
export interface RequestLog {
  slowMs: number;
  sampleRate: number;
}

/** The page and API policy of every response: only this origin, no frames, no plugins. */
export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * The headers of a JSON API answer (every path `isApiPath` names): what protects a response
 * that is data, not a page. No browser renders these answers, so helmet's page policies (the full
 * CSP, cross-origin opener, origin-agent cluster, DNS prefetch, IE download options, Flash's
 * cross-domain policies, the XSS auditor switch) protect nothing there, and each costs Node a header
 * validation and ~60 bytes per answer (docs/decisions/http-headers.md). Pages (the web app, the console,
 * /docs, static files) keep helmet's full set.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // Every API answer (the JSON envelope, success or error, a CSV export, a plain-text probe) is personal
  // or live: no browser or proxy may keep it (docs/decisions/http-headers.md). Set here with the rest rather than by an
  // onSend
  // hook that inspected every response's type (docs/decisions/http-headers.md).
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
});

/** Whether a request's answer takes the API's headers: the contract's routes (/go_user/) and /obj/. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/go_user/') || url.startsWith('/obj/');
}

/** Fastify's own options: body limit, proxies, request ids, and framework errors in the envelope. */
export function serverOptions(config: Config, logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // Always the server's own id; the client's x-request-id is kept apart (platform/request-context.ts).
    genReqId: requestIds(),
    // Fastify's two lines per request are off; installHttpPolicy's hook logs failures, slow answers and a sample.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    // Refused in the envelope by installHttpPolicy's hook instead (Fastify's own 503 body is not the envelope).
    return503OnClosing: false,
    // A path that cannot be decoded or a parameter past maxParamLength: refused before routing, in the envelope.
    frameworkErrors: (_error, request, reply) => sendError(request, reply, 'validation_failed', 400, {}),
  };
}

/**
 * Request ids: UUID-shaped and unique, without drawing 16 random bytes per request (randomUUID was
 * ~1.5% of a hello route's CPU): the first 18 hex digits are random per process, the last 12 count.
 */
export function requestIds(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let seq = 0;
  return () => {
    seq += 1;
    return prefix + seq.toString(16).padStart(12, '0');
  };
}

/** Upload size is checked per type while streaming; this is only the outer bound of one part. */
export const MULTIPART_LIMITS = { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11 };

/**
 * Registers @fastify/multipart in a route's own scope (registerRoutes): registered on the whole app,
 * its two async hooks (a 'close' listener per request, a clean-up per response) ran on every route.
 */
export async function installMultipart(scope: FastifyInstance) {
  await scope.register(fastifyMultipart, { limits: MULTIPART_LIMITS });
}

/** Told of every answer once it is sent (the metrics' request series): called from the one onResponse hook. */
export type AnswerObserver = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * What every request meets before any feature: helmet's headers and the request id on every
 * response, the refusal while shutting down, the one error handler, and the request log.
 * Call it first, before any hook that stops work on close (the refusal must start as soon as closing does).
 * One synchronous hook per stage, and one hook at most per stage: each hook costs every request a
 * call through Fastify's hook runner, each async one a promise too. What else must see every answer
 * (the metrics) registers through `observeAnswers` instead of adding its own onResponse hook.
 */
export function installHttpPolicy(app: FastifyInstance, log: RequestLog) {
  let observer: AnswerObserver | undefined;
  app.decorateRequest('authUser', undefined);
  app.decorateRequest('deliberateDelayMs', 0);
  // Every response carries the request id and its security headers, set before the handler runs so a
  // route may still override one: the API's short set on JSON API paths, helmet's full set on pages.
  // Both worked out once here.
  const pageHeaders = securityHeaders({ contentSecurityPolicy: CONTENT_SECURITY_POLICY });
  // Shutting down (SIGTERM): a request that still arrives on a kept-alive connection is refused with 503
  // in the envelope and `Connection: close` (set by Fastify), so the client retries on another instance.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? API_SECURITY_HEADERS : pageHeaders);
    reply.header('x-request-id', request.id);
    if (!closing) return done();
    reply.header('retry-after', '2');
    sendError(request, reply, 'service_unavailable', 503, {});
  });
  // Cache-Control: no-store comes with the API's headers above, and with every error envelope
  // (sendError), so no onSend hook has to look at each answer's type. Static files and uploads keep
  // their own caching.
  // Fastify's own request logging (two lines per request) is off (serverOptions); this logs every
  // 5xx, every slow answer and a sampled share of the rest, one line each.
  app.addHook('onResponse', (request, reply, done) => {
    observer?.(request, reply);
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    // A refusal held back on purpose (AUTH_CODE_FAILURE_DELAY_MS) is slow by design: under a flood of
    // made-up codes, logging each as slow would flood the log too.
    const slow = ms - request.deliberateDelayMs >= log.slowMs;
    if (status >= 500 || slow || (log.sampleRate > 0 && Math.random() < log.sampleRate)) {
      const line = { method: request.method, url: request.url, status, ms: Math.round(ms * 10) / 10 };
      if (status >= 500) request.log.error(line, 'request failed');
      else if (slow) request.log.warn(line, 'slow request');
      else request.log.info(line, 'request completed (sampled)');
    }
    done();
  });
  installErrorHandler(app);
  return {
    /** Sets the one observer of every answer (at most one: the metrics). */
    observeAnswers(next: AnswerObserver) {
      if (observer) throw new Error('observeAnswers: an observer is set already');
      observer = next;
    },
  };
}
