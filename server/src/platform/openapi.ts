import {
  errorResponsesOf,
  type MessageKey,
  RATE_LIMIT_RETRY_SECONDS,
  type RouteDef,
  type RouteName,
  routes,
  staleCurrent,
} from '@kamai/contract';
import { z } from 'zod';

type Json = Record<string, unknown>;

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input: the body, query, path or a header failed its rules (`data.fields` names each field)',
  401: 'No session, or an expired or revoked one',
  403: 'The session may not do this (staff role, frozen account, four-eyes rule)',
  404: 'Nothing with that id, or the route is not enabled',
  409: 'Conflicts with the current state',
  413: 'The body or upload is too large',
  415: 'The body is not in a type this route takes',
  429: 'Too many requests; wait `Retry-After` seconds',
  500: 'Unexpected failure (logged with the request id)',
  503: 'The database is unavailable or the server is shutting down; retry after `Retry-After` seconds',
};

const retryAfter = {
  description: 'Seconds to wait before trying again',
  schema: { type: 'integer', minimum: 1, maximum: 86_400 },
};
/** IETF draft-ietf-httpapi-ratelimit-headers: the policy, nothing remaining, `t` seconds to wait. */
const rateLimit = {
  description: 'The refused window, e.g. `"default";r=0;t=40`',
  schema: { type: 'string', maxLength: 100, pattern: '^"[a-z]+";r=\\d+;t=\\d+$' },
};

/** `data.current` of a stale queue action (STALE_KEYS): what the item is now, who decided it, when. */
const currentSchema: Json = {
  ...(z.toJSONSchema(staleCurrent, { io: 'output', target: 'draft-7' }) as Json),
  description: 'A queue action someone else decided first: the item’s state now, who decided it and when',
};
delete currentSchema.$schema;

/** The envelope of an error answer with the route's catalogue keys for that status. */
function envelopeSchema(status: number, keys: MessageKey[]): Json {
  return {
    type: 'object',
    required: ['code', 'message', 'key', 'data'],
    additionalProperties: false,
    properties: {
      code: { type: 'integer', const: status },
      message: { type: 'string', maxLength: 1000, description: 'The key translated for Accept-Language' },
      key: { type: 'string', enum: keys },
      data: {
        type: 'object',
        required: ['requestId'],
        properties: {
          requestId: { type: 'string', maxLength: 64 },
          fields: {
            type: 'object',
            description: 'Failing fields and their catalogue keys (400 only)',
            maxProperties: 100,
            additionalProperties: { type: 'string', maxLength: 64 },
          },
          seconds: { type: 'integer', minimum: 0, maximum: 86_400 },
          ...(status === 409 ? { current: currentSchema } : {}),
        },
      },
    },
  };
}

/** `/obj/ws/account/:phone/is-bound` → `/obj/ws/account/{phone}/is-bound` */
function openapiPath(path: string) {
  return path.replace(/:(\w+)/g, '{$1}');
}

/**
 * Adds every error answer of every route (from the contract's route table) to the generated document,
 * with the envelope schema, the catalogue keys per status, and `Retry-After`/`RateLimit` on 429 (and
 * `Retry-After` on 503). Error answers are not in the routes' Fastify schemas on purpose: those also
 * drive serialisation, and documentation must not change what the server sends.
 */
export function addErrorResponses<T extends { paths?: Record<string, Record<string, Json>> }>(document: T): T {
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    const operation = document.paths?.[openapiPath(def.path)]?.[def.method.toLowerCase()] as Json | undefined;
    if (!operation) continue;
    const responses = (operation.responses ?? {}) as Record<string, Json>;
    for (const [status, keys] of errorResponsesOf(name, def)) {
      responses[String(status)] = {
        description: DESCRIPTIONS[status] ?? 'Error',
        ...(status === 429
          ? { headers: { 'Retry-After': retryAfter, RateLimit: rateLimit } }
          : status === 503
            ? { headers: { 'Retry-After': retryAfter } }
            : {}),
        content: { 'application/json': { schema: envelopeSchema(status, keys) } },
      };
    }
    operation.responses = responses;
  }
  addIntegerFormats(document);
  return document;
}

/** Integers the contract leaves without a format are JavaScript safe integers: documented as int64. */
function addIntegerFormats(node: unknown) {
  const stack = [node];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (!item || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      stack.push(...item);
      continue;
    }
    const schema = item as Json;
    const type = schema.type;
    if ((type === 'integer' || (Array.isArray(type) && type.includes('integer'))) && schema.format === undefined) {
      schema.format = 'int64';
    }
    stack.push(...Object.values(schema));
  }
}

/** The headers of a 429: the refusal's own `seconds` when it has them (`otp_resend_wait`), else the default. */
export function rateLimitHeaders(data: Record<string, unknown>): Record<string, string> {
  const seconds =
    typeof data.seconds === 'number' && Number.isFinite(data.seconds) && data.seconds >= 1
      ? Math.ceil(data.seconds)
      : RATE_LIMIT_RETRY_SECONDS;
  return { 'retry-after': String(seconds), ratelimit: `"default";r=0;t=${seconds}` };
}
