import { createHash } from 'node:crypto';

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
