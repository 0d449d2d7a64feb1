import { createHash } from 'node:crypto';
import { type Column, getTableColumns, is, SQL, sql, type Table, type WithSubquery } from 'drizzle-orm';
import type { Executor } from './types';

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
 * `builtOnce` for a statement written as SQL text (one `db.execute` would run: a WITH with its own
 * CTEs, say), every value a placeholder: built once per process by the dialect of the first handle
 * that runs it, then prepared on each `db`'s session under `name`. Answers the driver's result, rows
 * as objects, as `db.execute` does.
 */
export function builtOnceText(name: string, build: () => SQL) {
  let built: Built | undefined;
  return (db: Executor, params: Record<string, unknown>): Promise<unknown> => {
    if (!built) {
      const { dialect } = db as unknown as { dialect: { sqlToQuery(sql: SQL): Built['query'] } };
      built = { query: dialect.sqlToQuery(build()), fields: undefined, joinsNotNullableMap: undefined };
    }
    return preparedFrom<{ execute(params: Record<string, unknown>): Promise<unknown> }>(db, built, name).execute(
      params,
    );
  };
}

/**
 * A part of a statement built once per shape (`builtPerShape`): usually one or more data-modifying
 * CTEs written by the owner of their table. `shape` names everything its text depends on (which
 * columns, which optional clauses); `params` are the values of its placeholders, which carry every
 * value that changes; `ctes` builds its text from those placeholders only, on first use of a shape.
 * Placeholder names start with the part's CTE name, so parts of one statement never share one.
 */
export interface StatementPart {
  shape: string;
  params: Record<string, unknown>;
  ctes: (db: Executor) => WithSubquery[];
}

/** The placeholders of a row's columns, named `${prefix}_${key}`, for an insert or an update built once. */
export function placeholderRow<K extends string>(prefix: string, keys: readonly K[]): Record<K, SQL> {
  const row = {} as Record<K, SQL>;
  // Inside an SQL chunk, not bare: a bare placeholder is wrapped with the column's encoder, which
  // drizzle applies to null too (jsonb null would become 'null'); `rowParams` encodes instead.
  for (const key of keys) row[key] = sql`${sql.placeholder(`${prefix}_${key}`)}`;
  return row;
}

/**
 * The values of `placeholderRow(prefix, keys)`, each encoded by its column as drizzle encodes a value
 * it is given (`mapToDriverValue`; null stays null), and the keys given (undefined ones left out, as
 * drizzle leaves them to the column's default).
 */
export function rowParams(table: Table, prefix: string, values: Record<string, unknown>) {
  const columns = columnsOf(table);
  const params: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`${prefix}: no column ${key}`);
    if (is(value, SQL)) throw new Error(`${prefix}.${key}: SQL in a statement built once`);
    keys.push(key);
    params[`${prefix}_${key}`] = value === null ? null : column.mapToDriverValue(value);
  }
  return { keys, params };
}

const tableColumns = new WeakMap<Table, Record<string, Column>>();
/** A table's columns by key (`getTableColumns` copies them on every call). */
function columnsOf(table: Table): Record<string, Column> {
  let columns = tableColumns.get(table);
  if (!columns) {
    columns = getTableColumns(table) as Record<string, Column>;
    tableColumns.set(table, columns);
  }
  return columns;
}

/**
 * A row's values for placeholders, its shape (the keys given) and `row()`, the placeholders of those
 * keys (`placeholderRow`), for the statement's build: called only when a shape is first built.
 */
export function rowPlaceholders<V extends Record<string, unknown>>(table: Table, prefix: string, values: V) {
  const { keys, params } = rowParams(table, prefix, values);
  // Typed as every key of `values`: an undefined one is left out, as drizzle leaves it to the default.
  const row = () => placeholderRow(prefix, keys) as { [K in keyof V]: SQL };
  return { row, params, shape: `${prefix}(${keys.join(',')})` };
}

/**
 * Runs a statement whose text varies with its input (which CTEs it carries, which columns it sets)
 * but never with its values, built by drizzle once per `shape` per process: the first run of a shape
 * builds it with placeholders only and keeps that build, as `builtOnce` does; every run prepares it on
 * `db`'s session (a transaction too) under a name hashed from its text, so on the PostgreSQL server each
 * shape is parsed and planned once per connection. Only for statements with few shapes (each stays
 * kept, and prepared for the connection's life).
 */
export function builtPerShape(prefix: string) {
  const shapes = new Map<string, { built: Built; name: string }>();
  return <R>(
    db: Executor,
    shape: string,
    build: (db: Executor) => { prepare(name: string): { execute(params?: Record<string, unknown>): Promise<R> } },
    params: Record<string, unknown>,
  ): Promise<R> => {
    let kept = shapes.get(shape);
    if (!kept) {
      const built = builtOf(build(db).prepare(prefix));
      const hash = createHash('sha1').update(built.query.sql).digest('base64url').slice(0, 16);
      kept = { built, name: `${prefix}_${hash}` };
      shapes.set(shape, kept);
    }
    return preparedFrom<{ execute(params: Record<string, unknown>): Promise<R> }>(db, kept.built, kept.name).execute(
      params,
    );
  };
}

/** The shape and parameters of a statement's parts, in order. */
export function partsOf(parts: readonly StatementPart[]) {
  return {
    shape: parts.map((p) => p.shape).join(';'),
    params: Object.assign({}, ...parts.map((p) => p.params)) as Record<string, unknown>,
    ctes: (db: Executor) => parts.flatMap((p) => p.ctes(db)),
  };
}
