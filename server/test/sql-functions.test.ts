import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Database, FUNCTIONS_DIR, MIGRATIONS_DIR, openDatabase } from '../src/db/client';
import { readFunctions } from '../src/db/functions';

/**
 * The database's functions have one current text each, in db/functions (docs/decisions/sql-functions.md):
 * a database built from nothing and one migrated long ago (its functions as the migrations left them,
 * or changed by hand) both end with exactly those texts after opening, and opening again changes nothing.
 */
const files = readFunctions(FUNCTIONS_DIR);
const CREATED = /CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+"?([a-z0-9_]+)"?\s*\(/gi;

/** The body between the dollar quotes, as pg_proc.prosrc keeps it. */
function bodyOf(text: string): string {
  const start = text.indexOf('$$');
  const end = text.lastIndexOf('$$');
  return text.slice(start + 2, end);
}

async function query<R>(database: Database, text: string, params: unknown[] = []): Promise<R[]> {
  const { $client } = database.db as unknown as { $client: { query: (t: string, p: unknown[]) => Promise<unknown> } };
  const result = (await $client.query(text, params)) as { rows: R[] };
  return result.rows;
}

/** Every function of ours in the database: name → its bodies (one per signature). */
async function functionsIn(database: Database) {
  const rows = await query<{ name: string; body: string }>(
    database,
    `select p.proname as name, p.prosrc as body from pg_proc p
     where p.pronamespace = 'public'::regnamespace order by p.proname, p.oid`,
  );
  const found = new Map<string, string[]>();
  for (const row of rows) found.set(row.name, [...(found.get(row.name) ?? []), row.body]);
  return found;
}

async function expectCurrentTexts(database: Database) {
  const found = await functionsIn(database);
  // None left over (a function no file defines any more was dropped by a migration).
  expect([...found.keys()].sort()).toEqual(files.map((f) => f.name).sort());
  for (const f of files) expect(found.get(f.name), f.file).toEqual([bodyOf(f.text)]);
}

/** Makes every function's text stale, as on a database migrated before its current text. */
async function staleTexts(database: Database) {
  for (const f of files) {
    const start = f.text.indexOf('$$') + 2;
    await query(database, `${f.text.slice(0, start)}\n-- stale${f.text.slice(start)}`);
  }
  const found = await functionsIn(database);
  for (const f of files) expect(found.get(f.name)?.[0]).not.toBe(bodyOf(f.text));
}

/** The migrations' own texts of each function, last one wins: a database migrated and never opened since. */
async function historicalTexts(database: Database) {
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'))) {
    for (const statement of readFileSync(join(MIGRATIONS_DIR, file), 'utf8').split('--> statement-breakpoint')) {
      if (/(CREATE\s+(OR\s+REPLACE\s+)?|DROP\s+)FUNCTION/i.test(statement)) {
        await query(database, statement.replace(/CREATE\s+FUNCTION/i, 'CREATE OR REPLACE FUNCTION'));
      }
    }
  }
}

interface Engine {
  /** A database built from nothing by opening it. */
  fresh(): Promise<Database>;
  /** The same database opened again (migrate and functions step). */
  reopen(): Promise<Database>;
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

function engine(): Engine {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `kamai_fn_${process.pid}_${randomInt(1e6)}`;
    const target = new URL(url);
    target.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: url });
    closers.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const open = async () => {
      const database = await openDatabase({ databaseUrl: target.toString(), connectTimeoutMs: 120_000 });
      closers.push(() => database.close());
      return database;
    };
    return {
      async fresh() {
        await admin.connect();
        await admin.query(`create database ${name}`);
        return open();
      },
      reopen: open,
    };
  }
  // The run's dump was made by opening a PGlite built from nothing (global-setup.ts).
  let client: PGlite | undefined;
  const open = async () => {
    const database = await openDatabase({ pglite: client });
    return database;
  };
  return {
    async fresh() {
      client = await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) });
      closers.push(() => client?.close() ?? Promise.resolve());
      return open();
    },
    reopen: open,
  };
}

describe('db/functions', () => {
  it('holds every function the migrations leave, each file the one function it is named for', () => {
    const left = new Set<string>();
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'))) {
      const text = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
      for (const m of text.matchAll(
        /(CREATE\s+(?:OR\s+REPLACE\s+)?|DROP\s+)FUNCTION\s+(?:IF\s+EXISTS\s+)?"?([a-z0-9_]+)"?/gi,
      )) {
        const name = m[2] ?? '';
        if (/^DROP/i.test(m[1] ?? '')) left.delete(name);
        else left.add(name);
        // Migrations from now on may drop a function, never define one: its text goes to db/functions.
        if (!/^DROP/i.test(m[1] ?? '')) expect(Number(file.slice(0, 4)), `${file} defines ${name}`).toBeLessThan(36);
      }
    }
    const names = files.map((f) => f.name);
    for (const name of left) expect(names, name).toContain(name);
    for (const f of files) {
      expect(
        [...f.text.matchAll(CREATED)].map((m) => m[1]),
        f.file,
      ).toEqual([f.name]);
      expect(f.text, f.file).toMatch(/CREATE OR REPLACE FUNCTION/);
    }
  });

  it('a fresh database and an already-migrated one both end with the current texts', async () => {
    const e = engine();
    const fresh = await e.fresh();
    await expectCurrentTexts(fresh);

    await historicalTexts(fresh);
    await staleTexts(fresh);
    const reopened = await e.reopen();
    await expectCurrentTexts(reopened);

    // Repeatable: opening again changes nothing.
    const again = await e.reopen();
    await expectCurrentTexts(again);
  }, 120_000);
});
