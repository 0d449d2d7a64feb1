import { createHash } from 'node:crypto';
import { is, Param, Placeholder } from 'drizzle-orm';

const statementHandles = new WeakMap<object, object>();

/**
 * Names the handle the hot queries of `db` are built on. On PGlite it is a second drizzle handle over
 * the same instance whose client runs each text as a named statement (`pglite-statements.ts`); on
 * the PostgreSQL server node-postgres names them itself and `db` is used as it is.
 */
export function setStatementHandle<D extends object>(db: D, handle: D): void {
  statementHandles.set(db, handle);
}

/**
 * A hot query built and prepared once per database handle, on first use: drizzle then skips building
 * the SQL, and the statement is parsed and planned once per connection (named statements of
 * node-postgres; on PGlite, once per instance) instead of on every request. Only for queries run on
 * the database itself, never on a transaction (a prepared query stays bound to the handle it was built on).
 */
export function preparedPer<D extends object, P>(build: (db: D) => P): (db: D) => P {
  const built = new WeakMap<D, P>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build((statementHandles.get(db) as D | undefined) ?? db);
      built.set(db, query);
    }
    return query;
  };
}

/** What drizzle's prepared query keeps of its build: the text with its parameters and how rows map. */
interface Built {
  query: { sql: string; params: unknown[] };
  fields: unknown;
  joinsNotNullableMap: unknown;
}

/** A query builder's prepared query, read for what `Built` keeps (drizzle keeps `fields` private). */
function builtOf(prepared: object): Built {
  const p = prepared as { getQuery(): Built['query']; fields: unknown; joinsNotNullableMap: unknown };
  return { query: p.getQuery(), fields: p.fields, joinsNotNullableMap: p.joinsNotNullableMap };
}

/**
 * A prepared query on `db`'s session (the database's, or a transaction's: its client) from a build
 * done before: drizzle's `session.prepareQuery`, which every query builder's `prepare` calls after
 * building the text, given the text, parameters and row mapping of that build.
 */
function preparedFrom<P>(db: object, built: Built, name: string): P {
  const { session } = db as {
    session: { prepareQuery(query: Built['query'], fields: unknown, name: string, arrayMode: boolean): object };
  };
  const prepared = session.prepareQuery(built.query, built.fields, name, true) as { joinsNotNullableMap: unknown };
  prepared.joinsNotNullableMap = built.joinsNotNullableMap;
  return prepared as P;
}

/**
 * A hot query inside a transaction, built once per process on first use and then prepared on the
 * session of whatever runs it (a transaction too), under `name`: drizzle skips building the SQL, and
 * the statement is parsed and planned once per connection. `preparedPer`'s saving for a query that
 * runs on a transaction, whose prepared query cannot be kept (it is bound to the transaction's
 * client). `build` takes every value as a placeholder, so its text and parameters are the same on
 * every handle and engine (one dialect).
 */
export function builtOnce<E extends object, P>(name: string, build: (db: E) => { prepare(name: string): P }) {
  let built: Built | undefined;
  return (db: E): P => {
    if (!built) {
      const prepared = build(db).prepare(name);
      built = builtOf(prepared as object);
      return prepared;
    }
    return preparedFrom<P>(db, built, name);
  };
}

/**
 * Runs a statement whose text varies with its input (which CTEs it carries) on `db` as a named
 * statement, named by a hash of its text: on the PostgreSQL server each shape is parsed and planned
 * once per connection. Only for statements with few shapes (each stays prepared for the connection's
 * life). drizzle builds it once: the build `prepare` makes is the one named and run (`toSQL()` then
 * `prepare(name)` would build it twice; benchmarks 3 and 4, docs/performance.md).
 */
export function executeByShape<R>(
  db: object,
  query: { prepare(name: string): { execute(): Promise<R> } },
  prefix: string,
): Promise<R> {
  const built = builtOf(query.prepare(prefix));
  const shape = createHash('sha1').update(built.query.sql).digest('base64url').slice(0, 16);
  return preparedFrom<{ execute(): Promise<R> }>(db, built, `${prefix}_${shape}`).execute();
}

/** A row as PostgreSQL's text values, column by column (null for SQL NULL): what `preparedRows` reads. */
export type TextRow = (string | null)[];

/**
 * Runs a statement by name (parsed once per connection, or once per PGlite instance) and answers its
 * rows as text: set per database handle by `openDatabase`, since each engine reaches its client its own
 * way. It answers the driver's own result (both drivers' carry `rows`), so it adds no promise of its own.
 */
export type TextRunner = (name: string, text: string, params: unknown[]) => Promise<{ rows: TextRow[] }>;

const textRunners = new WeakMap<object, TextRunner>();

export function setTextRunner(db: object, runner: TextRunner): void {
  textRunners.set(db, runner);
}

/**
 * drizzle's `fillPlaceholders`, with the looking-up done once: which parameter takes which placeholder's
 * value (through its column's encoder when drizzle wrapped it in one) and which are constants. The
 * filler answers what `fillPlaceholders(params, values)` would, and throws as it does on a missing value.
 */
function placeholderFiller(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const slots = params.map((param): ((values: Record<string, unknown>) => unknown) => {
    const encoder = is(param, Param) && is(param.value, Placeholder) ? param.encoder : undefined;
    const placeholder = is(param, Placeholder) ? param : encoder ? ((param as Param).value as Placeholder) : undefined;
    if (!placeholder) return () => param;
    const { name } = placeholder;
    return (values) => {
      if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
      return encoder ? encoder.mapToDriverValue(values[name]) : values[name];
    };
  });
  return (values) => slots.map((slot) => slot(values));
}

/**
 * A hot read without drizzle's per-row mapping (docs/decisions/hot-read-yardstick.md). Its SQL text
 * and parameter order come from drizzle's query builder (`toSQL()` of what `build` returns, once per
 * database handle), so the one definition of a live session and of every condition is used as it is;
 * only the decoding of the answer is ours: PostgreSQL's text values, turned by `read` (one small typed
 * reader per query, reading columns in the order the select names them) into what the caller needs.
 * The answer's one `async` step between the caller and the driver: the caller may hand its promise on.
 * Like `preparedPer`, only for queries on the database itself, never inside a transaction.
 */
export function preparedRows<D extends object, V extends Record<string, unknown>, R>(
  name: string,
  build: (db: D) => { toSQL(): { sql: string; params: unknown[] } },
  read: (rows: TextRow[]) => R,
): (db: D, values: V) => Promise<R> {
  const built = new WeakMap<D, { text: string; fill: (values: V) => unknown[]; run: TextRunner }>();
  return async (db, values) => {
    let query = built.get(db);
    if (!query) {
      const run = textRunners.get(db);
      if (!run) throw new Error(`preparedRows ${name}: no text runner for this database handle`);
      const { sql: text, params } = build(db).toSQL();
      query = { text, fill: placeholderFiller(params), run };
      built.set(db, query);
    }
    return read((await query.run(name, query.text, query.fill(values))).rows);
  };
}
