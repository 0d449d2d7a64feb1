import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
  const checkErrors = recordRouteErrors();
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
      checkErrors();
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
  return checkErrors;
}

/**
 * Every error the server answers during the run must be one its route documents in the OpenAPI
 * document (contract `ROUTE_ERRORS`; see platform/route-errors-check.ts): the test workers append the
 * undocumented ones to a file, and the run fails at the end listing each route and key once.
 */
function recordRouteErrors() {
  const file = join(mkdtempSync(join(tmpdir(), 'kamai-route-errors-')), 'undocumented.tsv');
  process.env.KAMAI_ROUTE_ERRORS_LOG = file;
  return () => {
    if (!existsSync(file)) return;
    const lines = [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))].sort();
    if (lines.length === 0) return;
    // An error thrown here is printed but leaves the exit code alone: set it too.
    process.exitCode = 1;
    throw new Error(
      `${lines.length} error answers their route does not document; add each key to ROUTE_ERRORS in contract/src/route-errors.ts:\n${lines.join('\n')}`,
    );
  };
}
