import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { count, sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../src/db/client';
import { makeTemplate, seedFromTemplate } from '../src/db/pglite-template';
import { users } from '../src/db/schema';

const dump = inject('pgliteDump');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory removed after the file (each holds a ~40 MB database). */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A template made from the run's migrated dump instead of initdb (seconds faster, same layout). */
async function template(): Promise<string> {
  const dir = join(tempDir('kamai-tpl-'), 'pglite-template');
  const made = await makeTemplate(dir, MIGRATIONS_DIR, (target) =>
    PGlite.create(target, { loadDataDir: new Blob([readFileSync(dump)]) }),
  );
  expect(made).toBe(true);
  return dir;
}

async function userCount(dataDir: string, templateDir: string): Promise<number> {
  const database = await openDatabase({ dataDir, template: templateDir });
  try {
    const [row] = await database.db.select({ n: count() }).from(users);
    return row?.n ?? -1;
  } finally {
    await database.close();
  }
}

// PGlite only: with DATABASE_URL the run makes no PGlite dump.
describe.skipIf(!dump)('PGlite template', () => {
  it('fills an empty data directory from the template, which later writes leave untouched', async () => {
    const tpl = await template();
    const first = tempDir('kamai-data-');
    const database = await openDatabase({ dataDir: first, template: tpl });
    await database.db.execute(
      sql`insert into users (username, password_hash, invite_code) values ('a@b.c', 'x', 'TPLTEST1')`,
    );
    await database.close();
    expect(await userCount(first, tpl)).toBe(1);
    // A second directory starts from the same clean template.
    expect(await userCount(tempDir('kamai-data-'), tpl)).toBe(0);
    expect(await makeTemplate(tpl, MIGRATIONS_DIR)).toBe(false);
  });

  it('never copies over an existing database, nor uses a template of another PGlite or other migrations', async () => {
    const tpl = await template();
    const dataDir = tempDir('kamai-data-');
    mkdirSync(join(dataDir, 'pglite'));
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
    expect(seedFromTemplate(join(dataDir, 'pglite'), tpl, MIGRATIONS_DIR)).toBe(false);
    expect(readFileSync(join(dataDir, 'pglite', 'PG_VERSION'), 'utf8')).toBe('17\n');

    const stamp = JSON.parse(readFileSync(`${tpl}.json`, 'utf8'));
    const empty = () => join(tempDir('kamai-data-'), 'pglite');
    expect(seedFromTemplate(empty(), tpl, MIGRATIONS_DIR)).toBe(true);
    writeFileSync(`${tpl}.json`, JSON.stringify({ ...stamp, pglite: '0.0.1' }));
    expect(seedFromTemplate(empty(), tpl, MIGRATIONS_DIR)).toBe(false);
    writeFileSync(`${tpl}.json`, JSON.stringify({ ...stamp, migrations: 'other migrations' }));
    expect(seedFromTemplate(empty(), tpl, MIGRATIONS_DIR)).toBe(false);
  });
});
