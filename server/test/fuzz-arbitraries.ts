import type { RouteDef } from '@kamai/contract';
import fc from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries for the requests of one route of the contract: values derived from the
 * route's zod schemas (through `z.toJSONSchema`, input side), values that refinements would want but a
 * JSON Schema cannot say (by field name, see `Hints`), and hostile values mixed in.
 */

/** Text written into the JSON body as it is: `1e309`, `NaN`, `-0`, a truncated document. */
export class Raw {
  constructor(readonly text: string) {}
}
/** An object as an ordered list of entries, so `__proto__` and repeated keys survive to the wire. */
export class Obj {
  constructor(readonly entries: [string, unknown][]) {}
}

export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Obj) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

/** One query-string value as text (objects and arrays as JSON: the server sees a string). */
function queryText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return toJsonText(value);
}

/** Percent-encoding that never throws: a lone surrogate cannot be UTF-8, so it becomes U+FFFD. */
export const encode = (text: string) =>
  encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** `k=v&k=v2` from an object; arrays repeat the key, `raw` parts are appended unencoded. */
export function toQueryString(value: unknown, raw: string[] = []): string {
  const parts: string[] = [];
  if (value instanceof Obj) {
    for (const [k, v] of value.entries) {
      const values = Array.isArray(v) ? v : [v];
      for (const one of values) parts.push(`${encode(k)}=${encode(queryText(one))}`);
    }
  }
  parts.push(...raw);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  maxItems?: number;
};

/** Values that pass a field's refinements, by field name: the shapes that reach the services. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const YEAR_MS = 365.25 * 86_400_000;
/** ISO instants over the whole range the contract's regex accepts (years 0000-9999, any offset). */
export const isoDateTime = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 1969, 1970, 2026, 9999)),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
    fc.integer({ min: 0, max: 23 }),
    fc.constantFrom('Z', '+05:30', '-14:00', '+14:00', '.123Z', '.999999999+00:00'),
  )
  .map(([y, mo, d, h, tail]) => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:00:00${tail}`;
  });
export const isoDate = isoDateTime.map((text) => text.slice(0, 10));
export const recentIso = fc
  .integer({ min: -2 * YEAR_MS, max: 2 * YEAR_MS })
  .map((offset) => new Date(Date.UTC(2026, 0, 1) + offset).toISOString());

const cap = (n: number | undefined, max: number) => (n === undefined ? max : Math.min(n, max));

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'date-time') return fc.oneof(recentIso, isoDateTime);
  if (s.format === 'date') return isoDate;
  if (s.pattern) {
    const pattern = new RegExp(s.pattern);
    try {
      return fc.stringMatching(pattern);
    } catch {
      // fast-check cannot generate from lookaheads (the plain-mailbox rule has them): addresses and noise.
      return fc.oneof(fc.emailAddress(), fc.string({ maxLength: 40 }));
    }
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, cap(s.maxLength, 40));
  const around = [minLength, maxLength, (s.maxLength ?? maxLength) + 1].filter((n) => n >= 0);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.constantFrom(...around).map((n) => 'x'.repeat(n)) },
  );
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0) : s.minimum;
  const max = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 0) : s.maximum;
  if (integer) {
    const lo = Math.max(min ?? -(2 ** 31), Number.MIN_SAFE_INTEGER);
    const hi = Math.min(max ?? 2 ** 31, Number.MAX_SAFE_INTEGER);
    return fc.oneof(
      fc.integer({ min: Math.max(lo, -1000), max: Math.min(hi, 1000) }),
      fc.constantFrom(lo, hi),
      fc.maxSafeInteger().filter((n) => n >= lo && n <= hi),
    );
  }
  return fc.double({ min: min ?? -1e12, max: max ?? 1e12, noNaN: true });
}

/** Arbitrary of the values a JSON Schema describes. */
export function fromJsonSchema(s: JsonSchema, hints: Hints = {}, name?: string): fc.Arbitrary<unknown> {
  const own = schemaArb(s, hints);
  const hint = name !== undefined && Object.hasOwn(hints, name) ? hints[name] : undefined;
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: own }) : own;
}

function schemaArb(s: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (s.anyOf) return fc.oneof(...s.anyOf.map((one) => fromJsonSchema(one, hints)));
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type) => fromJsonSchema({ ...s, type }, hints)));
  switch (s.type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? fromJsonSchema(s.items, hints) : fc.jsonValue(), { maxLength: cap(s.maxItems, 8) });
    case 'object':
      return objectArb(s, hints);
    default:
      return fc.jsonValue();
  }
}

function objectArb(s: JsonSchema, hints: Hints): fc.Arbitrary<Obj> {
  const required = new Set(s.required ?? []);
  const props = Object.entries(s.properties ?? {}).map(([key, sub]) => {
    const value = fromJsonSchema(sub, hints, key);
    // A required field is there nearly always; an optional one half the time.
    const present = required.has(key) ? fc.boolean().map(() => true) : fc.boolean();
    return fc.tuple(fc.constant(key), value, present);
  });
  const extra =
    s.additionalProperties && typeof s.additionalProperties === 'object'
      ? fc.array(
          fc.tuple(
            s.propertyNames ? (fromJsonSchema(s.propertyNames, hints) as fc.Arbitrary<string>) : fc.string(),
            fromJsonSchema(s.additionalProperties, hints),
          ),
          { maxLength: 4 },
        )
      : fc.constant([] as [string, unknown][]);
  return fc.tuple(fc.tuple(...props), extra).map(([fields, more]) => {
    const entries: [string, unknown][] = fields.filter(([, , present]) => present).map(([k, v]) => [k, v]);
    const seen = new Set(entries.map(([k]) => k));
    for (const [k, v] of more) if (!seen.has(k)) entries.push([k, v]);
    return new Obj(entries);
  });
}

/** The JSON Schema of a request part, as a client would have to send it. */
export function schemaOf(type: z.ZodType): JsonSchema {
  return z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

// ---- hostile values -------------------------------------------------------------------------

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\uffff',
  '💸'.repeat(50),
  '१२३४५६',
  '९८७६५४३२१०',
  '12,50',
  '1e309',
  '-1',
  '0',
  '-0',
  '0.001',
  '1.005',
  '0x10',
  'NaN',
  'Infinity',
  'null',
  'true',
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}',
  '\r\nX-Injected: 1',
  'a'.repeat(10_000),
];

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((n) => 'ए'.repeat(n)) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      -0.5,
      0.001,
      1.5,
      2 ** 31,
      2 ** 53 + 2,
      -(2 ** 63),
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      new Raw('1e309'),
      new Raw('-1e309'),
      new Raw('-0'),
      new Raw('1E-400'),
      new Raw('123456789012345678901234567890'),
    ),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.constant(new Obj([])) },
  { weight: 1, arbitrary: fc.constant(new Obj([['__proto__', new Obj([['role', 'admin']])]])) },
);

/** Keys a client might slip in to set what it must not: ignored or refused, never obeyed. */
export const SMUGGLED_KEYS = ['balance', 'role', 'userId', 'id', 'frozen', 'hold', 'reward', 'createdAt'];
const strangeKeys = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', ...SMUGGLED_KEYS),
  fc.string({ maxLength: 20 }),
);

type Mutation =
  | { kind: 'replace'; index: number; value: unknown }
  | { kind: 'drop'; index: number }
  | { kind: 'add'; key: string; value: unknown }
  | { kind: 'repeat'; index: number; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), index: fc.nat(), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), key: strangeKeys, value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), index: fc.nat(), value: hostileValue }) },
);

function applyMutations(base: unknown, mutations: Mutation[]): unknown {
  if (!(base instanceof Obj)) return base;
  let entries = [...base.entries];
  for (const m of mutations) {
    const at = entries.length > 0 && m.kind !== 'add' ? m.index % entries.length : -1;
    const name = at >= 0 ? (entries[at]?.[0] ?? '') : '';
    if (m.kind === 'replace' && at >= 0) entries[at] = [name, m.value];
    if (m.kind === 'drop' && at >= 0) entries = entries.filter((_, i) => i !== at);
    if (m.kind === 'repeat' && at >= 0) entries.push([name, m.value]);
    if (m.kind === 'add') entries.push([m.key, m.value]);
  }
  return new Obj(entries);
}

/** A valid-looking value of a schema with 0-3 hostile changes (none about a third of the time). */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.oneof(
        { weight: 1, arbitrary: fc.constant([] as Mutation[]) },
        { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
      ),
    )
    .map(([base, mutations]) => applyMutations(base, mutations));
}

/** Whole bodies that are not the object a route wants. */
const hostileBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    new Raw(''),
    new Raw('{'),
    new Raw('{"a":'),
    new Raw('null'),
    new Raw('[]'),
    new Raw('"text"'),
    new Raw('1e309'),
    new Raw('NaN'),
    new Raw('{"a":1,}'),
    new Raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    new Raw(`{"__proto__":{"isAdmin":true}}`),
    new Raw(`{"constructor":{"prototype":{"role":"admin"}}}`),
    new Raw(`{"pad":"${'x'.repeat(1_100_000)}"}`),
  ),
  hostileValue,
);

export interface FuzzRequest {
  /** The path with its parameters filled in and the query string. */
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  acceptLanguage?: string;
  /** Replaces the role's bearer header when set (garbage tokens, odd schemes). */
  authorization?: string;
  ip: string;
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'application/vnd.api+json',
];
const contentType = fc.oneof(
  { weight: 9, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
);

const acceptLanguage = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('hi-IN', 'zh_CN', 'gu', 'pa-IN,en;q=0.5', 'mr_IN') },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')) },
  { weight: 1, arbitrary: fc.constantFrom('*', ';;;q=', 'x'.repeat(5000), '__proto__', 'constructor') },
);

const authorization = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Bearer  x',
      'bearer x y',
      'Basic YWRtaW46YWRtaW4=',
      `Bearer ${'a'.repeat(8000)}`,
      'Bearer null',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, '')}`) },
);

const RAW_QUERY_PARTS = [
  '%ED%A0%80',
  'limit=%C0%AF',
  '%',
  '%zz',
  '%E0%A4',
  'limit',
  'limit=',
  '=1',
  '__proto__=1',
  'constructor[prototype][x]=1',
  'a[b]=c',
  '&&',
  'limit=1&limit=2',
];

const PARAM_VALUES = ['%', '%zz', '..%2F..%2F', '%2e%2e', '%00', '', ' ', 'x'.repeat(300)];

/** Fills `:name` path parameters from the schema (with hints) or with hostile text. */
function pathArb(def: RouteDef, hints: Hints): fc.Arbitrary<string> {
  const names = [...def.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  if (names.length === 0) return fc.constant(def.path);
  const params = def.params ? (schemaOf(def.params).properties ?? {}) : {};
  const one = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fromJsonSchema(params[name] ?? {}, hints, name).map((v) => encode(queryText(v))) },
      { weight: 1, arbitrary: hostileString.map(encode) },
      { weight: 1, arbitrary: fc.constantFrom(...PARAM_VALUES) },
    );
  return fc.tuple(...names.map(one)).map((values) => {
    let i = 0;
    return def.path.replace(/:(\w+)/g, () => values[i++] ?? '');
  });
}

function queryArb(def: RouteDef, hints: Hints): fc.Arbitrary<string> {
  const valid = def.query ? fromJsonSchema(schemaOf(def.query), hints) : fc.constant(new Obj([]));
  return fc
    .tuple(
      mutated(valid),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant([] as string[]) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom(...RAW_QUERY_PARTS), { minLength: 1, maxLength: 3 }) },
      ),
    )
    .map(([value, raw]) => toQueryString(value, raw));
}

function jsonBodyArb(def: RouteDef, hints: Hints): fc.Arbitrary<string | undefined> {
  const valid = def.body ? fromJsonSchema(schemaOf(def.body), hints) : fc.constant(new Obj([]));
  return fc
    .oneof(
      { weight: 6, arbitrary: mutated(valid) },
      { weight: 1, arbitrary: hostileBody },
      { weight: 1, arbitrary: fc.constant(undefined) },
    )
    .map((value) => (value === undefined ? undefined : toJsonText(value)));
}

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** Multipart bodies: a file part of random bytes (sometimes with a real PNG head), wrong fields, garbage. */
function multipartArb(field: string): fc.Arbitrary<{ payload: Buffer | string | undefined; contentType: string }> {
  const boundary = 'fuzzboundary';
  const part = fc.record({
    name: fc.oneof(
      { weight: 4, arbitrary: fc.constant(field) },
      { weight: 1, arbitrary: fc.constantFrom('', 'other', '__proto__') },
    ),
    filename: fc.constantFrom('a.png', 'a.mp4', '../../x.png', '', 'ü.jpg'),
    type: fc.constantFrom('image/png', 'video/mp4', 'text/plain', 'image/jpeg', ''),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
      fc
        .tuple(fc.nat({ max: 70_000 }), fc.nat({ max: 70_000 }), fc.uint8Array({ maxLength: 64 }))
        .map(([w, h, rest]) => {
          const dims = Buffer.alloc(8);
          dims.writeUInt32BE(w, 0);
          dims.writeUInt32BE(h, 4);
          return Buffer.concat([PNG_HEAD, dims, Buffer.from([8, 2, 0, 0, 0]), Buffer.from(rest)]);
        }),
    ),
  });
  const multipart = fc.array(part, { minLength: 0, maxLength: 2 }).map((parts) => {
    const chunks: Buffer[] = [];
    for (const p of parts) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
        ),
        p.bytes,
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
  });
  const broken = fc.constantFrom(
    { payload: 'garbage', contentType: `multipart/form-data; boundary=${boundary}` },
    { payload: 'garbage', contentType: 'multipart/form-data' },
    { payload: '{}', contentType: 'application/json' },
    { payload: undefined, contentType: 'application/json' },
    {
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"`,
      contentType: `multipart/form-data; boundary=${boundary}`,
    },
  );
  return fc.oneof({ weight: 4, arbitrary: multipart }, { weight: 1, arbitrary: broken });
}

const ip = fc.constantFrom('10.0.0.1', '10.0.0.2', '10.0.0.3', '2001:db8::1');

/** Every request the fuzzer sends to one route. */
export function requestArb(def: RouteDef, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const common = fc.record({
    path: pathArb(def, hints),
    query: queryArb(def, hints),
    acceptLanguage,
    authorization,
    ip,
  });
  if (def.method === 'GET') {
    return common.map(({ path, query, ...rest }) => ({ url: `${path}${query}`, ...rest }));
  }
  if (def.multipart) {
    return fc.tuple(common, multipartArb(def.multipart.field)).map(([{ path, query, ...rest }, body]) => ({
      url: `${path}${query}`,
      ...rest,
      ...body,
    }));
  }
  return fc.tuple(common, jsonBodyArb(def, hints), contentType).map(([{ path, query, ...rest }, payload, type]) => ({
    url: `${path}${query}`,
    ...rest,
    payload,
    contentType: payload === undefined ? undefined : type,
  }));
}
