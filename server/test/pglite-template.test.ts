import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { makeTemplate, seedFromTemplate } from '../src/db/pglite-template';

const dump = inject('pgliteDump');

/** A template made from the run's migrated dump instead of initdb (seconds faster, same layout). */
async function template(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'kamai-tpl-')), 'pglite-template');
  const made = await makeTemplate(dir, (target) =>
    PGlite.create(target, { loadDataDir: new Blob([readFileSync(dump)]) }),
  );
  expect(made).toBe(true);
  return dir;
}

async function userCount(dataDir: string, templateDir: string): Promise<number> {
  const database = await openDatabase({ dataDir, template: templateDir });
  try {
    const result = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
    return result.rows[0]?.n ?? -1;
  } finally {
    await database.close();
  }
}

// PGlite only: with DATABASE_URL the run makes no PGlite dump.
describe.skipIf(!dump)('PGlite template', () => {
  it('fills an empty data directory from the template, which later writes leave untouched', async () => {
    const tpl = await template();
    const first = mkdtempSync(join(tmpdir(), 'kamai-data-'));
    const database = await openDatabase({ dataDir: first, template: tpl });
    await database.db.execute(
      sql`insert into users (username, password_hash, invite_code) values ('a@b.c', 'x', 'TPLTEST1')`,
    );
    await database.close();
    expect(await userCount(first, tpl)).toBe(1);
    // A second directory starts from the same clean template.
    expect(await userCount(mkdtempSync(join(tmpdir(), 'kamai-data-')), tpl)).toBe(0);
    expect(await makeTemplate(tpl)).toBe(false);
  });

  it('never copies over an existing database, nor uses a template of another PGlite version', async () => {
    const tpl = await template();
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-data-'));
    mkdirSync(join(dataDir, 'pglite'));
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
    expect(seedFromTemplate(join(dataDir, 'pglite'), tpl)).toBe(false);
    expect(readFileSync(join(dataDir, 'pglite', 'PG_VERSION'), 'utf8')).toBe('17\n');

    writeFileSync(`${tpl}.json`, JSON.stringify({ pglite: '0.0.1' }));
    expect(seedFromTemplate(join(mkdtempSync(join(tmpdir(), 'kamai-data-')), 'pglite'), tpl)).toBe(false);
  });
});
