import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Serialises a response through fast-json-stringify compiled from its zod schema's JSON Schema (on the
 * route's first answer, so start-up does not compile a hundred routes). Like zod, it writes only the
 * properties the schema names: a field the schema does not name never reaches the client.
 *
 * With `check` (tests and development) every answer also goes through zod's own encode as before: a
 * handler that breaks its schema fails the request, and a fast answer that differs in any byte from
 * zod's fails it too, so the test suite proves the two agree on every response it sees. Production
 * skips zod's per-response work (docs/decisions/response-serialisation.md).
 */
export function responseSerializerCompiler(options: { check: boolean }): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const zodJson = options.check ? (zodSerializerCompiler(route as never) as (data: unknown) => string) : undefined;
    let fast: ((data: unknown) => string) | undefined;
    return (data) => {
      fast ??= compile(route.schema);
      const out = fast(data);
      if (zodJson) {
        const expected = zodJson(data);
        if (out !== expected) {
          throw new Error(`${route.method} ${route.url}: the compiled serializer wrote ${out}, zod wrote ${expected}`);
        }
      }
      return out;
    };
  };
}

/** A schema JSON Schema cannot express (a transform on the way out) keeps zod's encode and JSON.stringify. */
function compile(schema: z.ZodType): (data: unknown) => string {
  let json: object;
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as object;
  } catch {
    return (data) => JSON.stringify(z.encode(schema, data as never));
  }
  return fastJson(withoutInputRules(json) as object);
}

/** Formats fast-json-stringify writes differently (a Date as an ISO string); every other format is a check. */
const WRITING_FORMATS = new Set(['date-time', 'date', 'time', 'int64', 'int32']);

/**
 * Drops the rules that check a string's shape (`pattern`, `format: email` and the like). They describe
 * what the input accepts; on the way out fast-json-stringify applies them only where it must choose a
 * branch (`anyOf`, e.g. a nullable object), and a stored value that an older rule accepted would then
 * fail the answer with a 500 (a fuzz case found one: a Help e-mail the form took but the `email` format
 * refused). Choosing the branch needs only the types.
 */
function withoutInputRules(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutInputRules);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' && typeof value === 'string') continue;
    if (key === 'format' && typeof value === 'string' && !WRITING_FORMATS.has(value)) continue;
    out[key] = withoutInputRules(value);
  }
  return out;
}
