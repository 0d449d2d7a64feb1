import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/client';

// Migration 0037 renames the manual credit's posting type (docs/decisions/names.md): a database that
// holds credits posted under the old type `revenue` keeps each of them, under `manual_credit`.
const RENAME = '0037_manual_credit_posting_type';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The migrations as they stood before the rename: the same folder without 0037 in it or its journal. */
function migrationsBeforeRename(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-migrations-'));
  dirs.push(dir);
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  rmSync(join(dir, `${RENAME}.sql`));
  const journalFile = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag !== RENAME);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe('migration 0037: the manual credit posting type', () => {
  it('rewrites credits posted as revenue and leaves every other posting as it was', async () => {
    const client = new PGlite();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBeforeRename() });
    await client.exec(`
      insert into postings (type, idempotency_key, ref) values
        ('revenue', 'revenue:audit:1', '{"note": "March bonus"}'),
        ('revenue', 'revenue:request:2', '{"note": "refund"}'),
        ('task_reward', 'task:1', '{}'),
        ('withdrawal_paid', 'withdrawal:1:paid', '{}')`);

    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });

    const { rows } = await client.query<{ type: string; idempotency_key: string }>(
      'select type, idempotency_key from postings order by id',
    );
    expect(rows).toEqual([
      { type: 'manual_credit', idempotency_key: 'revenue:audit:1' },
      { type: 'manual_credit', idempotency_key: 'revenue:request:2' },
      { type: 'task_reward', idempotency_key: 'task:1' },
      { type: 'withdrawal_paid', idempotency_key: 'withdrawal:1:paid' },
    ]);
    await client.close();
  }, 60_000);
});
