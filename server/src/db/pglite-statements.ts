import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import { protocol } from '@electric-sql/pglite';

/**
 * Named statements on PGlite, for the hot queries (`preparedPer`). PGlite's `query()` sends every
 * statement unnamed: Parse, Describe, Bind, Describe, Execute and Sync as six calls into WebAssembly,
 * with the parse, analysis and planning of the text each time, then copies its whole type-parser
 * table when options carry parsers (drizzle's always do). Here a text is parsed once per PGlite
 * instance (one PostgreSQL session) as a named statement; each run is then one call with Bind,
 * Execute and Sync, and PostgreSQL's plan cache keeps the plan as it does on the server.
 *
 * Locking is PGlite's own `query()`'s: the transaction mutex (so a run never lands inside another
 * caller's open transaction) around the query mutex (`runExclusive`, which PGlite documents for use
 * with `execProtocol`). Values are serialized and rows parsed with the instance's serializers and
 * parsers and the options' ones first, as `query()` does, so drizzle maps the same values.
 */

interface Statement {
  name: string;
  paramTypes: number[];
  fields: Results['fields'];
}

/** The client drizzle's PGlite driver needs for a prepared query: it calls only `query`. */
export interface StatementClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

const { serialize } = protocol;
const EXECUTE_SYNC = concat(serialize.execute({}), serialize.sync());
/**
 * PostgreSQL revalidates a named statement after DDL on its tables by itself; these two codes are
 * what it cannot mend: the statement is gone (26000) or its result columns changed (0A000, "cached
 * plan must not change result type"). Either way the text is parsed again and run once more: the
 * failed run ended with its implicit transaction rolled back, so nothing of it stays.
 */
const STALE = new Set(['26000', '0A000']);
/** Far above the handful of fixed hot texts; a text past it runs unnamed, so a misuse cannot grow the session. */
const MAX_STATEMENTS = 200;

/** The statements parsed in each PGlite instance, by text: per instance, since each is its own session. */
const sessions = new WeakMap<PGlite, Map<string, Statement>>();

export function namedStatementClient(pg: PGlite): StatementClient {
  return { query: (text, params = [], options) => run(pg, text, params, options) };
}

/**
 * The same named statements, answering each row as PostgreSQL's text values (null for NULL), unparsed:
 * for the hot reads that map their rows themselves (`preparedRows` in hot-reads.ts).
 */
export function namedTextRows(pg: PGlite): (text: string, params: unknown[]) => Promise<Results<(string | null)[]>> {
  return (text, params) => run<(string | null)[]>(pg, text, params, undefined, true);
}

function statementsOf(pg: PGlite): Map<string, Statement> {
  let statements = sessions.get(pg);
  if (!statements) {
    statements = new Map();
    sessions.set(pg, statements);
  }
  return statements;
}

async function run<T>(
  pg: PGlite,
  text: string,
  params: unknown[],
  options?: QueryOptions,
  asText = false,
): Promise<Results<T>> {
  const statements = statementsOf(pg);
  if (!statements.has(text) && statements.size >= MAX_STATEMENTS) {
    if (asText) throw new Error('too many named statements for a text read');
    return pg.query<T>(text, params, options);
  }
  await pg._checkReady();
  return pg._runExclusiveTransaction(() =>
    pg.runExclusive(async () => {
      const statement = statements.get(text);
      if (!statement) return execute<T>(pg, await prepare(pg, statements, text), params, options, asText);
      try {
        return await execute<T>(pg, statement, params, options, asText);
      } catch (error) {
        if (!STALE.has((error as { code?: string }).code ?? '')) throw error;
        return execute<T>(pg, await prepare(pg, statements, text), params, options, asText);
      }
    }),
  );
}

/** Parses `text` under its name (closing a stale one of that name first) and learns its types. */
async function prepare(pg: PGlite, statements: Map<string, Statement>, text: string): Promise<Statement> {
  const name = statements.get(text)?.name ?? `kamai_pglite_${statements.size + 1}`;
  const { messages } = await pg.execProtocol(
    concat(
      serialize.close({ type: 'S', name }),
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ),
  );
  const statement: Statement = { name, paramTypes: [], fields: [] };
  for (const message of messages) {
    if (message.name === 'parameterDescription')
      statement.paramTypes = (message as unknown as { dataTypeIDs: number[] }).dataTypeIDs;
    else if (message.name === 'rowDescription')
      statement.fields = (message as unknown as { fields: Results['fields'] }).fields.map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
      }));
  }
  statements.set(text, statement);
  return statement;
}

async function execute<T>(
  pg: PGlite,
  statement: Statement,
  params: unknown[],
  options: QueryOptions | undefined,
  asText: boolean,
): Promise<Results<T>> {
  const values = params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const type = statement.paramTypes[i] ?? 0;
    const serializer = options?.serializers?.[type] ?? pg.serializers[type];
    return serializer ? serializer(param) : String(param);
  });
  const { messages } = await pg.execProtocol(
    concat(serialize.bind({ statement: statement.name, values }), EXECUTE_SYNC),
  );
  const { fields } = statement;
  const parsers = fields.map((f) => options?.parsers?.[f.dataTypeID] ?? pg.parsers[f.dataTypeID]);
  const asArray = options?.rowMode === 'array';
  const rows: unknown[] = [];
  const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
  for (const message of messages) {
    if (message.name === 'dataRow') {
      if (asText) {
        rows.push((message as unknown as { fields: (string | null)[] }).fields);
        continue;
      }
      const row = (message as unknown as { fields: (string | null)[] }).fields.map((value, c) => {
        const parse = parsers[c];
        return value === null || !parse ? value : parse(value, fields[c]?.dataTypeID);
      });
      rows.push(asArray ? row : Object.fromEntries(row.map((value, c) => [fields[c]?.name, value])));
    } else if (message.name === 'commandComplete') {
      const words = (message as unknown as { text: string }).text.split(' ');
      const count = Number.parseInt(words[words.length - 1] ?? '', 10);
      result.command = words[0];
      if (!Number.isNaN(count)) {
        result.rowCount = count;
        if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(words[0] ?? '')) result.affectedRows = count;
      }
    }
  }
  return result;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
