import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from '../platform/errors';
import { type DatabaseTarget, parseDatabaseUrl } from './database-url';
import { applyFunctions, functionsBeside } from './functions';
import { setTextRunner, type TextRow } from './hot-reads';
import { namedStatementClient, namedTextRows } from './pglite-statements';
import { seedFromTemplate } from './pglite-template';
import { setStatementHandle } from './prepared';
import { openReplicas, type ReplicaSet } from './replicas';
import * as schema from './schema';
import { type RetryOptions, sqlStateOf, withTransactionRetry } from './transaction';
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
  /** The streaming standbys that take reads which may be a moment stale (PostgreSQL server only). */
  replicas?: ReplicaSet;
}

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
/** One current text per database function, applied after the migrations (`functions.ts`). */
export const FUNCTIONS_DIR = functionsBeside(MIGRATIONS_DIR);

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
  /**
   * How long opening waits for the database (a writable host of it) before it gives up (DATABASE_WAIT_SECONDS);
   * 0: one try. Start-up in a container platform then waits out a failover instead of crash-looping.
   */
  waitMs?: number;
  /** Told of each failed try while waiting, with the delay before the next one. */
  onWait?: (info: { attempt: number; error: Error; retryInMs: number }) => void;
  /** Streaming standbys of the primary (DATABASE_REPLICA_URLS); only with `databaseUrl`. */
  replicaUrls?: string[];
  /** A replica further behind than this is not read (DATABASE_REPLICA_MAX_LAG_MS). */
  replicaMaxLagMs?: number;
}

/** Every column as PostgreSQL's text: the reader of a `preparedRows` query decodes what it selected. */
const asText = (value: string) => value;
const TEXT_TYPES = { getTypeParser: () => asText } as unknown as pg.CustomTypesConfig;

/** Any fixed number: the advisory lock that lets one instance at a time apply migrations. */
const MIGRATION_LOCK = 7_106_501;

/** node-postgres when a URL is given, else PGlite in `dataDir` (or the given instance); migrates by default. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const runMigrations = options.migrate ?? true;
  if (options.databaseUrl) {
    const target = parseDatabaseUrl(options.databaseUrl);
    const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    const single = target.hosts.length === 1 && target.targetSessionAttrs === 'any';
    const pool = new pg.Pool({
      connectionString: single ? options.databaseUrl : target.hosts[0]?.url,
      max: options.poolSize ?? 20,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
      ...(single ? {} : { Client: hostListClient(target, connectTimeoutMs) }),
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
    // The hot reads that map their own rows (`preparedRows`): named, so each connection parses them once.
    setTextRunner(db, (name, text, values) =>
      pool.query<TextRow>({ name, text, values, rowMode: 'array', types: TEXT_TYPES }),
    );
    try {
      // A connection that drops while the migrations run (a failover, a load balancer's check marking
      // the node down) is waited out like an unreachable database, within the same budget.
      const deadline = Date.now() + (options.waitMs ?? 0);
      for (let attempt = 1; ; attempt++) {
        await waitForDatabase(pool, Math.max(0, deadline - Date.now()), options.onWait);
        if (!runMigrations) break;
        try {
          await migrateLocked(pool, db);
          break;
        } catch (error) {
          const delay = Math.min(250 * 2 ** (attempt - 1), 5_000) * (0.5 + Math.random() / 2);
          if (!isDatabaseUnavailable(error) || Date.now() + delay > deadline) throw error;
          options.onWait?.({ attempt, error: error as Error, retryInMs: Math.round(delay) });
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    const replicas =
      options.replicaUrls && options.replicaUrls.length > 0
        ? openReplicas({
            urls: options.replicaUrls,
            maxLagMs: options.replicaMaxLagMs ?? 2_000,
            primary: pool,
            poolSize: options.poolSize ?? 20,
            connectTimeoutMs,
            onConnectionError: options.onConnectionError,
          })
        : undefined;
    return {
      db,
      kind: 'postgres',
      replicas,
      close: async () => {
        await replicas?.close();
        await pool.end();
      },
      retries,
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  if (options.replicaUrls && options.replicaUrls.length > 0)
    throw new Error('DATABASE_REPLICA_URLS needs DATABASE_URL: PGlite has no standbys');
  let client = options.pglite;
  if (!client) {
    const dir = resolve(options.dataDir ?? './data', 'pglite');
    mkdirSync(dirname(dir), { recursive: true });
    seedFromTemplate(dir, options.template, MIGRATIONS_DIR);
    client = await PGlite.create(dir);
  }
  const owned = client;
  const retries: RetryOptions = {};
  const db = withTransactionRetry(drizzlePglite({ client, schema }), retries);
  if (runMigrations) {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
    await applyFunctions((script) => owned.exec(script), FUNCTIONS_DIR);
  }
  // Drizzle's prepared queries call only `query(text, params, options)` on their client, which this
  // one answers with named statements; the handle never runs a transaction (`preparedPer`).
  const statements = drizzlePglite({ client: namedStatementClient(client) as unknown as PGlite });
  setStatementHandle(db, statements as unknown as Db);
  const textRows = namedTextRows(client);
  setTextRunner(db, (_name, text, values) => textRows(text, values));
  return { db, kind: 'pglite', close: () => owned.close(), retries };
}

/**
 * SQLSTATEs and socket errors after which a connection is no use: the host became read-only (a standby, or
 * a primary being demoted: 25006), the backend was terminated or the server is starting or stopping
 * (57P01-57P03), or the link broke (class 08, socket errors). Such a connection is destroyed, not
 * returned to the pool, so the next request opens a new one (to the writable host).
 */
const BROKEN_STATES = new Set(['25006', '57P01', '57P02', '57P03']);
const BROKEN_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
export function isBrokenConnection(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state && (BROKEN_STATES.has(state) || state.startsWith('08'))) return true;
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && BROKEN_SOCKET.has(code)) return true;
    if (typeof message === 'string' && /Connection terminated|Connection ended|not queryable/i.test(message))
      return true;
  }
  return false;
}

/** Whether a session is the kind `target_session_attrs` asks for (libpq's checks for each value). */
async function sessionFits(client: pg.Client, attrs: DatabaseTarget['targetSessionAttrs']): Promise<boolean> {
  if (attrs === 'read-write') {
    const { rows } = await client.query<{ transaction_read_only: string }>('show transaction_read_only');
    return rows[0]?.transaction_read_only === 'off';
  }
  if (attrs === 'primary') {
    const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
    return rows[0]?.standby === false;
  }
  return true;
}

/** No host of DATABASE_URL took the connection as asked: answered 503 (08001) like an unreachable server. */
function noHostError(target: DatabaseTarget, reasons: string[]) {
  return Object.assign(
    new Error(`no host of DATABASE_URL is usable (${target.targetSessionAttrs}): ${reasons.join('; ')}`),
    { code: '08001' },
  );
}

/**
 * The pool's client class for a host list or a target_session_attrs: each new connection tries the hosts in
 * order, as libpq does, and keeps the first whose session fits. node-postgres connects a client once, to
 * one host, so every host before the last is first tried with a short-lived probe; the pooled client then
 * connects to the one that fit, and checks again (the cluster may have changed in between).
 */
function hostListClient(target: DatabaseTarget, connectTimeoutMs: number): typeof pg.Client {
  return class HostListClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: as above
    override connect(callback?: (...args: any[]) => void): any {
      const done = this.connectToFirstFit().then(() => this);
      if (!callback) return done;
      done.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
      return undefined;
    }

    private async connectToFirstFit() {
      const reasons: string[] = [];
      for (const [index, host] of target.hosts.entries()) {
        const name = `${host.host}:${host.port}`;
        if (index < target.hosts.length - 1) {
          const probe = new pg.Client({ connectionString: host.url, connectionTimeoutMillis: connectTimeoutMs });
          probe.on('error', () => undefined);
          try {
            await probe.connect();
            const fits = await sessionFits(probe, target.targetSessionAttrs);
            // Not awaited, here and below: node-postgres' end() never settles on a connection that dropped.
            probe.end().catch(() => undefined);
            if (!fits) {
              reasons.push(`${name} is read-only`);
              continue;
            }
          } catch (error) {
            probe.end().catch(() => undefined);
            reasons.push(`${name}: ${(error as Error).message}`);
            continue;
          }
        }
        const self = this as unknown as {
          host: string;
          port: number;
          connectionParameters: { host: string; port: number };
        };
        self.host = host.host;
        self.port = host.port;
        self.connectionParameters.host = host.host;
        self.connectionParameters.port = host.port;
        await super.connect();
        if (await sessionFits(this as unknown as pg.Client, target.targetSessionAttrs)) return;
        this.end().catch(() => undefined);
        reasons.push(`${name} is read-only`);
        break;
      }
      throw noHostError(target, reasons);
    }
  };
}

/**
 * Waits, with capped exponential backoff and jitter, until a connection (to a usable host) opens, for at
 * most `waitMs`; the last error is thrown after that.
 */
async function waitForDatabase(pool: pg.Pool, waitMs: number, onWait?: OpenOptions['onWait']) {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const client = await pool.connect();
      client.release();
      return;
    } catch (error) {
      const delay = Math.min(250 * 2 ** (attempt - 1), 5_000) * (0.5 + Math.random() / 2);
      if (Date.now() + delay > deadline) throw error;
      onWait?.({ attempt, error: error as Error, retryInMs: Math.round(delay) });
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Several instances may start at once on one database: the first applies the migrations and then the
 * functions' current texts, the others wait and then apply the same texts again (which changes nothing).
 */
async function migrateLocked(pool: pg.Pool, db: Parameters<typeof migratePg>[0]) {
  const lock = await pool.connect();
  let broken: Error | undefined;
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    await applyFunctions((script) => lock.query(script), FUNCTIONS_DIR);
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release(broken);
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
    let broken: Error | undefined;
    try {
      // Typed as the schema-aware instance; only its `query` property (never read) differs.
      const bare = drizzlePg({ client }) as unknown as Db;
      return await bare.transaction(fn, config);
    } catch (error) {
      if (isBrokenConnection(error)) broken = error as Error;
      throw error;
    } finally {
      // With an error the pool destroys the connection instead of keeping it.
      client.release(broken);
    }
  };
  (db as Db).transaction = run;
  return db;
}
