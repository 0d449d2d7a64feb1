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
 * skips zod's per-response work (docs/decisions.md, "Responses serialised by compiled schemas").
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
  return fastJson(json);
}
