import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { BODY_LIMIT_BYTES, UPLOAD_MAX_BYTES } from '@kamai/contract';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import { installErrorHandler, sendError } from './error-handler';
import { securityHeaders } from './security-headers';

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

/** Fastify's own options: body limit, proxies, request ids, and framework errors in the envelope. */
export function serverOptions(config: Config, logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // Always the server's own id; the client's x-request-id is kept apart (platform/request-context.ts).
    genReqId: () => randomUUID(),
    // Refused in the envelope by installHttpPolicy's hook instead (Fastify's own 503 body is not the envelope).
    return503OnClosing: false,
    // A path that cannot be decoded or a parameter past maxParamLength: refused before routing, in the envelope.
    frameworkErrors: (_error, request, reply) => sendError(request, reply, 'validation_failed', 400, {}),
  };
}

/**
 * What every request meets before any feature: helmet's headers and the request id on every
 * response, the refusal while shutting down, the one error handler, and multipart's outer bounds.
 * Call it first, before any hook that stops work on close (the refusal must start as soon as closing does).
 */
export async function installHttpPolicy(app: FastifyInstance) {
  app.decorateRequest('authUser', undefined);
  app.decorateRequest('sessionHash', undefined);
  // Every response, API and app alike, carries the request id and helmet's headers, set before the
  // handler runs so a route may still override one.
  const headers = securityHeaders({ contentSecurityPolicy: CONTENT_SECURITY_POLICY });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
  // Every JSON answer (the API's envelope, success or error) is personal or live: no browser or proxy
  // may keep it (issue 12). Static files and uploads keep their own caching.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  // Shutting down (SIGTERM): a request that still arrives on a kept-alive connection is refused with 503
  // in the envelope and `Connection: close` (set by Fastify), so the client retries on another instance.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('retry-after', '2');
    return sendError(request, reply, 'service_unavailable', 503, {});
  });
  installErrorHandler(app);
  // Upload size is checked per type while streaming; this is only the outer bound of one part.
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11 } });
}
