import { constants, cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * A freshly initialised PGlite data directory, made once by the build. Creating a data directory
 * runs initdb inside WebAssembly (~5 s and ~900 MB here); copying this folder takes ~0.2 s, so a
 * start on an empty DATA_DIR is as quick as a restart. Migrations still run at start, so the
 * template does not depend on the schema: only on the PGlite version, which its stamp records.
 */
/** The installed PGlite's version (its package.json is not exported, so it is read beside its entry). */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Beside the folder, not in it: the folder is copied whole into data directories. */
function stampOf(templateDir: string): string {
  return `${templateDir}.json`;
}

/** Whether `templateDir` holds a template made by the PGlite installed now. */
export function templateIsCurrent(templateDir: string): boolean {
  try {
    const stamp = JSON.parse(readFileSync(stampOf(templateDir), 'utf8')) as { pglite?: string };
    return stamp.pglite === pgliteVersion() && existsSync(join(templateDir, 'PG_VERSION'));
  } catch {
    return false;
  }
}

/** Makes the template unless a current one is there; returns whether it had to. */
export async function makeTemplate(
  templateDir: string,
  create: (dir: string) => Promise<PGlite> = (dir) => PGlite.create(dir),
): Promise<boolean> {
  if (templateIsCurrent(templateDir)) return false;
  const building = `${templateDir}.tmp-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const client = await create(building);
  await client.close();
  rmSync(templateDir, { recursive: true, force: true });
  renameSync(building, templateDir);
  writeFileSync(stampOf(templateDir), `${JSON.stringify({ pglite: pgliteVersion() })}\n`);
  return true;
}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Fills an empty or missing PGlite directory from the template. Copied beside it and renamed, so a
 * start killed half-way leaves no half-copied data directory. Returns whether it copied.
 */
export function seedFromTemplate(dir: string, templateDir: string | undefined): boolean {
  if (!templateDir || !isEmptyOrMissing(dir) || !templateIsCurrent(templateDir)) return false;
  const copying = `${dir}.tmp-${process.pid}`;
  rmSync(copying, { recursive: true, force: true });
  // Copy-on-write where the file system offers it, a plain copy elsewhere.
  cpSync(templateDir, copying, { recursive: true, mode: constants.COPYFILE_FICLONE });
  rmSync(dir, { recursive: true, force: true });
  renameSync(copying, dir);
  return true;
}
