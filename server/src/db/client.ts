import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { seedFromTemplate } from './pglite-template';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What a `*.queries.ts` function runs on: the database, or the caller's transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
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
}

/** node-postgres when a URL is given, else PGlite in `dataDir` (or the given instance); migrates by default. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const runMigrations = options.migrate ?? true;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
    const db = drizzlePg({ client: pool, schema });
    if (runMigrations) await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  let client = options.pglite;
  if (!client) {
    const dir = resolve(options.dataDir ?? './data', 'pglite');
    mkdirSync(dirname(dir), { recursive: true });
    seedFromTemplate(dir, options.template, MIGRATIONS_DIR);
    client = await PGlite.create(dir);
  }
  const db = drizzlePglite({ client, schema });
  if (runMigrations) await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  const owned = client;
  return { db, kind: 'pglite', close: () => owned.close() };
}
