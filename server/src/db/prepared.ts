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

/**
 * Runs a statement whose text varies with its input (which CTEs it carries) as a named statement,
 * named by a hash of its text: on the PostgreSQL server each shape is parsed and planned once per
 * connection. Only for statements with few shapes (each stays prepared for the connection's life).
 */
export function executeByShape<R>(
  query: { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<R> } },
  prefix: string,
): Promise<R> {
  const shape = createHash('sha1').update(query.toSQL().sql).digest('base64url').slice(0, 16);
  return query.prepare(`${prefix}_${shape}`).execute();
}
