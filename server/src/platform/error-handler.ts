import { isMessageKey, type MessageKey, pickLocale, statusOf, translate } from '@kamai/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, isDatabaseUnavailable } from './errors';
import { rateLimitHeaders } from './openapi';
import { recordUndocumentedError } from './route-errors-check';

type Vars = Record<string, unknown>;

export function sendError(request: FastifyRequest, reply: FastifyReply, key: MessageKey, status: number, data: Vars) {
  const locale = pickLocale(request.headers['accept-language']);
  recordUndocumentedError(request.routeOptions.config?.routeName, key);
  // Every 429 says when to come back (the OpenAPI document promises these headers).
  if (status === 429 && !reply.hasHeader('retry-after')) reply.headers(rateLimitHeaders(data));
  // An error envelope is never kept by a cache, on a page path too (API paths carry it already).
  reply.header('cache-control', 'no-store');
  return reply.code(status).send({
    code: status,
    message: translate(locale, key, data),
    key,
    data: { ...data, requestId: request.id },
  });
}

const BY_FASTIFY_CODE: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_json',
};

const BY_STATUS: Record<number, MessageKey> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/** Path of a failing field ("/username", "password2") as the client names it. */
function fieldName(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.') || 'body';
}

/** Maps every error to the envelope (docs/design.md "API contract"); 5xx text and stacks never reach the client. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      request.deliberateDelayMs = error.delayedMs;
      // Every 503 says when to try again (a failover, a database restart: seconds).
      if (error.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', '2');
      return sendError(request, reply, error.key, error.status, error.data);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, MessageKey> = {};
      for (const issue of error.validation) {
        const name = fieldName(issue.instancePath);
        const key = isMessageKey(issue.message) ? issue.message : 'validation_failed';
        fields[name] ??= key;
      }
      const first = Object.values(fields)[0] ?? 'validation_failed';
      return sendError(request, reply, first, 400, { fields });
    }

    const byCode = error.code ? BY_FASTIFY_CODE[error.code] : undefined;
    if (byCode) return sendError(request, reply, byCode, statusOf(byCode), {});

    const status = error.statusCode ?? 500;
    if (status < 500) {
      const key = BY_STATUS[status] ?? 'validation_failed';
      return sendError(request, reply, key, statusOf(key), {});
    }

    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '2');
      return sendError(request, reply, 'service_unavailable', 503, {});
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 'internal_error', 500, {});
  });
}
