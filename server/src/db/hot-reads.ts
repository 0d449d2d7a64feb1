// Exists only for speed: benchmark 2, docs/performance.md ("Benchmark 2: authenticated reads";
// docs/decisions/hot-read-yardstick.md). The hot reads (task/list, user/detail) run their drizzle-built
// SQL by name and decode PostgreSQL's text values themselves instead of through drizzle's per-row mapping.
import { Column, fillPlaceholders, is, SQL } from 'drizzle-orm';

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

/** Where each selected field is in a `TextRow`: `row[columns.id]` is the text of the field `id`. */
export type ColumnsOf<F> = { readonly [K in keyof F]: number };

/** What `preparedRows` needs of a drizzle select: its SQL and its (flat) selection, in the select's order. */
interface HotSelect<F> {
  toSQL(): { sql: string; params: unknown[] };
  readonly _: { readonly selectedFields: F };
}

/**
 * The index of each field of a flat selection, in the order drizzle writes the select list (the
 * selection's own key order). A nested object would be flattened by drizzle into several columns, so
 * it is refused: a hot read selects columns and SQL expressions only.
 */
function columnsOf<F extends object>(name: string, fields: F): ColumnsOf<F> {
  const columns: Record<string, number> = {};
  for (const [index, [key, field]] of Object.entries(fields).entries()) {
    if (!(is(field, Column) || is(field, SQL) || is(field, SQL.Aliased))) {
      throw new Error(`preparedRows ${name}: field ${key} is not a column or an SQL expression`);
    }
    columns[key] = index;
  }
  return columns as ColumnsOf<F>;
}

/**
 * A hot read without drizzle's per-row mapping. Its SQL text and parameters come from drizzle's query
 * builder (`toSQL()` of what `build` returns, once per database handle, filled by drizzle's own
 * `fillPlaceholders`), so the one definition of a live session and of every condition is used as it is;
 * only the decoding of the answer is ours: `read` (one small typed reader per query) gets PostgreSQL's
 * text values and where each selected field is among them (`columns`, by the select's field names,
 * computed once per handle) and turns them into what the caller needs. The answer's one `async` step
 * between the caller and the driver: the caller may hand its promise on. Like `preparedPer`
 * (prepared.ts), only for queries on the database itself, never inside a transaction.
 */
export function preparedRows<D extends object, V extends Record<string, unknown>, F extends object, R>(
  name: string,
  build: (db: D) => HotSelect<F>,
  read: (rows: TextRow[], columns: ColumnsOf<F>) => R,
): (db: D, values: V) => Promise<R> {
  const built = new WeakMap<D, { text: string; params: unknown[]; columns: ColumnsOf<F>; run: TextRunner }>();
  return async (db, values) => {
    let query = built.get(db);
    if (!query) {
      const run = textRunners.get(db);
      if (!run) throw new Error(`preparedRows ${name}: no text runner for this database handle`);
      const select = build(db);
      const { sql: text, params } = select.toSQL();
      query = { text, params, columns: columnsOf(name, select._.selectedFields), run };
      built.set(db, query);
    }
    const { rows } = await query.run(name, query.text, fillPlaceholders(query.params, values));
    return read(rows, query.columns);
  };
}
