import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The database's functions, one current text each (docs/decisions/sql-functions.md). Migrations are
 * history: the functions they created long ago are replaced, after every migrate, by the files of
 * `db/functions`, each one `CREATE OR REPLACE FUNCTION`. The step is repeatable (running it again
 * changes nothing) and runs in file-name order: the two-digit prefix is the layer, so a function comes
 * after the ones it calls (00 helpers, 10 triggers, 20 money rules, 30 what calls those).
 */
export interface SqlFunction {
  /** The file name, e.g. `20_ledger_post.sql`. */
  file: string;
  /** The function it defines: the file name without its layer and `.sql`. */
  name: string;
  text: string;
}

/** The functions folder beside a migrations folder (src/db, and dist/ in the bundle). */
export function functionsBeside(migrationsFolder: string): string {
  return join(dirname(migrationsFolder), 'functions');
}

const FILE = /^(\d\d)_([a-z0-9_]+)\.sql$/;

export function readFunctions(folder: string): SqlFunction[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const match = FILE.exec(file);
      if (!match?.[2]) throw new Error(`db/functions/${file}: name it <layer>_<function>.sql`);
      return { file, name: match[2], text: readFileSync(join(folder, file), 'utf8') };
    });
}

/** All the files as one script: sent as one simple query, it runs as one implicit transaction. */
export function functionsScript(folder: string): string {
  return readFunctions(folder)
    .map((f) => `-- ${f.file}\n${f.text.trimEnd()}\n`)
    .join('\n');
}

/** What the functions' texts are, for the PGlite template's stamp. */
export function functionsHash(folder: string): string {
  return createHash('sha256').update(functionsScript(folder)).digest('hex');
}

/**
 * Replaces every function with its current text, in one transaction. `exec` runs a script of several
 * statements without parameters (PGlite's `exec`, node-postgres' `query` with text only). Called
 * right after drizzle's migrate, under the same advisory lock on a PostgreSQL server.
 */
export async function applyFunctions(exec: (script: string) => Promise<unknown>, folder: string): Promise<void> {
  await exec(functionsScript(folder));
}
