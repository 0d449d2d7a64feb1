import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { namedStatementClient } from './pglite-statements';
import { seedFromTemplate } from './pglite-template';
import { setStatementHandle } from './prepared';
import * as schema from './schema';
import { type RetryOptions, withTransactionRetry } from './transaction';

import type { Db } from './types';

// The types live in types.ts so that transaction.ts can use them without importing this file back.
export type { Db, Executor, Schema, Tx } from './types';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Who is told when a transaction is run again after a serialization failure or deadlock (metrics). */
  retries: RetryOptions;
  /** Connections of the pool (PostgreSQL server only): open, idle, and requests waiting for one. */
  pool?: () => { total: number; idle: number; waiting: number };
}

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** An already opened PGlite (tests load one from a migrated dump). */
  pglite?: PGlite;
  migrate?: boolean;
  /** A PGlite template directory (`pglite-template.ts`) to copy when `dataDir` holds no database yet. */
  template?: string;
  /** Connections of this process's pool (PostgreSQL server); N instances hold up to N times this many. */
  poolSize?: number;
  /** How long a request waits for a connection before it fails (and answers 503). */
  connectTimeoutMs?: number;
  /** An idle pooled connection failed (the server restarted, a backend was terminated). */
  onConnectionError?: (error: Error) => void;
}

/** Any fixed number: the advisory lock that lets one instance at a time apply migrations. */
const MIGRATION_LOCK = 7_106_501;

/** node-postgres when a URL is given, else PGlite in `dataDir` (or the given instance); migrates by default. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const runMigrations = options.migrate ?? true;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      keepAlive: true,
    });
    const lost =
      options.onConnectionError ?? ((e: Error) => process.stderr.write(`database connection lost: ${e.message}\n`));
    // Without listeners, a connection the server drops would crash the process: the pool reports its idle
    // clients' errors, and a checked-out client (say, inside a transaction between two queries) emits
    // its own. The query in flight still fails (503); the pool discards the client and opens a new one.
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    const retries: RetryOptions = {};
    const db = withTransactionRetry(releasingTransactions(pool, drizzlePg({ client: pool, schema })), retries);
    if (runMigrations) await migrateLocked(pool, db);
    return {
      db,
      kind: 'postgres',
      close: () => pool.end(),
      retries,
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  let client = options.pglite;
  if (!client) {
    const dir = resolve(options.dataDir ?? './data', 'pglite');
    mkdirSync(dirname(dir), { recursive: true });
    seedFromTemplate(dir, options.template, MIGRATIONS_DIR);
    client = await PGlite.create(dir);
  }
  const retries: RetryOptions = {};
  const db = withTransactionRetry(drizzlePglite({ client, schema }), retries);
  if (runMigrations) await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  // Drizzle's prepared queries call only `query(text, params, options)` on their client, which this
  // one answers with named statements; the handle never runs a transaction (`preparedPer`).
  const statements = drizzlePglite({ client: namedStatementClient(client) as unknown as PGlite });
  setStatementHandle(db, statements as unknown as Db);
  const owned = client;
  return { db, kind: 'pglite', close: () => owned.close(), retries };
}

/** Several instances may start at once on one database: the first applies the migrations, the others wait. */
async function migrateLocked(pool: pg.Pool, db: Parameters<typeof migratePg>[0]) {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release();
  }
}

/**
 * Runs each transaction on a client this function checks out and always releases. Drizzle's own
 * pool transaction sends BEGIN before its try/finally: when BEGIN fails (the connection died while
 * idle in the pool) the client is never released, and after a few database blips the pool has no
 * connections left and the instance never recovers. A released client that broke is discarded by
 * the pool.
 *
 * The per-transaction instance gets no schema: with one, drizzle extracts the relational config of
 * every table again (120-250 µs of CPU a transaction here, measured), and only the relational
 * `tx.query.*` API needs it, which no feature uses; queries name their tables directly.
 */
function releasingTransactions<D extends Db>(pool: pg.Pool, db: D): D {
  const run: Db['transaction'] = async (fn, config) => {
    const client = await pool.connect();
    try {
      // Typed as the schema-aware instance; only its `query` property (never read) differs.
      const bare = drizzlePg({ client }) as unknown as Db;
      return await bare.transaction(fn, config);
    } finally {
      client.release();
    }
  };
  (db as Db).transaction = run;
  return db;
}
