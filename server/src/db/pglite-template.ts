import { createHash } from 'node:crypto';
import { constants, cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { applyFunctions, functionsBeside, functionsHash } from './functions';

/**
 * A PGlite data directory initialised and migrated once, by the build. Creating a data directory
 * runs initdb inside WebAssembly (~5 s and ~900 MB here) and the migrations take ~1 s more on it;
 * copying this folder takes ~0.2 s, so a start on an empty DATA_DIR costs about a restart. It holds
 * no rows of ours beyond what the migrations insert (never the admin: each install makes its own).
 * Its stamp names the PGlite version, the migrations and the functions' texts (db/functions beside the
 * migrations) it holds; any other template is not used.
 */
interface Stamp {
  pglite: string;
  migrations: string;
  functions: string;
}

/** The installed PGlite's version (its package.json is not exported, so it is read beside its entry). */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function stampFor(migrationsFolder: string): Stamp {
  const journal = readFileSync(join(migrationsFolder, 'meta', '_journal.json'));
  return {
    pglite: pgliteVersion(),
    migrations: createHash('sha256').update(journal).digest('hex'),
    functions: functionsHash(functionsBeside(migrationsFolder)),
  };
}

/** Beside the folder, not in it: the folder is copied whole into data directories. */
function stampFile(templateDir: string): string {
  return `${templateDir}.json`;
}

/** Whether `templateDir` was made by the PGlite installed now, with exactly these migrations and functions. */
export function templateIsCurrent(templateDir: string, migrationsFolder: string): boolean {
  try {
    const stamp = JSON.parse(readFileSync(stampFile(templateDir), 'utf8')) as Partial<Stamp>;
    const current = stampFor(migrationsFolder);
    return (
      stamp.pglite === current.pglite &&
      stamp.migrations === current.migrations &&
      stamp.functions === current.functions &&
      existsSync(join(templateDir, 'PG_VERSION'))
    );
  } catch {
    return false;
  }
}

/** Makes the template unless a current one is there; returns whether it had to. */
export async function makeTemplate(
  templateDir: string,
  migrationsFolder: string,
  create: (dir: string) => Promise<PGlite> = (dir) => PGlite.create(dir),
): Promise<boolean> {
  if (templateIsCurrent(templateDir, migrationsFolder)) return false;
  const building = `${templateDir}.tmp-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const client = await create(building);
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    await applyFunctions((script) => client.exec(script), functionsBeside(migrationsFolder));
  } finally {
    await client.close();
  }
  rmSync(templateDir, { recursive: true, force: true });
  renameSync(building, templateDir);
  writeFileSync(stampFile(templateDir), `${JSON.stringify(stampFor(migrationsFolder))}\n`);
  return true;
}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Fills an empty or missing PGlite directory from the template. Copied beside it and renamed, so a
 * start killed half-way leaves no half-copied data directory. Returns whether it copied.
 */
export function seedFromTemplate(dir: string, templateDir: string | undefined, migrationsFolder: string): boolean {
  if (!templateDir || !isEmptyOrMissing(dir) || !templateIsCurrent(templateDir, migrationsFolder)) return false;
  const copying = `${dir}.tmp-${process.pid}`;
  rmSync(copying, { recursive: true, force: true });
  // Copy-on-write where the file system offers it, a plain copy elsewhere.
  cpSync(templateDir, copying, { recursive: true, mode: constants.COPYFILE_FICLONE });
  rmSync(dir, { recursive: true, force: true });
  renameSync(copying, dir);
  return true;
}
