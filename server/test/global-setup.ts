import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    templateDatabase: string;
  }
}

/**
 * Migrates once per run. PGlite: a migrated data directory is dumped to a file that every test file
 * loads. PostgreSQL (DATABASE_URL set): a fresh template database that every test file clones.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `kamai_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const database = await openDatabase({ databaseUrl: target.toString() });
    await database.close();
    project.provide('templateDatabase', template);
    project.provide('pgliteDump', '');
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const client = await PGlite.create();
  const database = await openDatabase({ pglite: client });
  const dump = await client.dumpDataDir('none');
  await database.close();
  const file = join(mkdtempSync(join(tmpdir(), 'kamai-test-')), 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', file);
  project.provide('templateDatabase', '');
  return undefined;
}
