/**
 * A hot query built and prepared once per database handle, on first use: drizzle then skips building
 * the SQL, and on the PostgreSQL server the statement is parsed and planned once per connection
 * (named statements of node-postgres) instead of on every request. Only for queries run on the
 * database itself, never on a transaction (a prepared query stays bound to the handle it was built on).
 */
export function preparedPer<D extends object, P>(build: (db: D) => P): (db: D) => P {
  const built = new WeakMap<D, P>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
