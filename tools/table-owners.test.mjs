import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { check, ownersOf } from './table-owners.mjs';

const tables = [
  {
    path: 'server/src/db/tables/withdrawals.ts',
    text: "export const withdrawals = pgTable('withdrawals', {});\nexport const withdrawalHistory = pgTable(",
  },
  { path: 'server/src/db/tables/platform.ts', text: "export const jobs = pgTable('jobs', {});" },
];
const owners = ownersOf(tables);
const file = (path, text) => ({ path, text });
const run = (files, shared = {}) => check(files, owners, shared).violations;

describe('table-owners', () => {
  it('reads the owner of each table from the file it is declared in', () => {
    expect(owners.get('withdrawals')).toBe('withdrawals');
    expect(owners.get('withdrawalHistory')).toBe('withdrawals');
    expect(owners.get('jobs')).toBe('platform');
  });

  it("lets the owner's queries import its tables, and the schema's own files", () => {
    expect(
      run([
        file(
          'server/src/features/withdrawals/withdrawals.queries.ts',
          "import { withdrawals } from '../../db/schema';\nimport { and } from 'drizzle-orm';",
        ),
        file(
          'server/src/features/withdrawals/sub/deep.queries.ts',
          "import { withdrawals } from '../../../db/schema';",
        ),
        file('server/src/platform/jobs.queries.ts', "import { jobs } from '../db/schema';"),
        file('server/src/db/client.ts', "import * as schema from './schema';"),
        file('server/src/db/tables/payouts.ts', "import { withdrawals } from './withdrawals';"),
        file('server/test/payouts.test.ts', "import { withdrawals } from '../src/db/schema';"),
      ]),
    ).toEqual([]);
  });

  it("fails on another feature's queries importing the table", () => {
    const violations = run([
      file(
        'server/src/features/payouts/payouts.queries.ts',
        "import { users, withdrawals as w } from '../../db/schema';",
      ),
    ]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/payouts\.queries\.ts: imports withdrawals, a table of withdrawals/);
  });

  it('fails on a table file imported directly, and on a type-only import', () => {
    expect(
      run([
        file('server/src/features/payouts/a.queries.ts', "import { withdrawals } from '../../db/tables/withdrawals';"),
        file('server/src/features/payouts/b.queries.ts', "import type { withdrawals } from '../../db/schema';"),
      ]),
    ).toHaveLength(2);
  });

  it("fails on the owner's service importing its own table or building a query", () => {
    const violations = run([
      file(
        'server/src/features/withdrawals/withdrawals.service.ts',
        "import { and, eq } from 'drizzle-orm';\nimport { withdrawals } from '../../db/schema';",
      ),
    ]);
    expect(violations).toHaveLength(2);
    expect(violations.join('\n')).toMatch(/imports and, eq from drizzle-orm/);
  });

  it('lets a service import drizzle types', () => {
    expect(
      run([
        file(
          'server/src/features/withdrawals/withdrawals.state.ts',
          "import type { WithSubquery } from 'drizzle-orm';\nimport { type SQL } from 'drizzle-orm';",
        ),
      ]),
    ).toEqual([]);
  });

  it("fails on a feature importing platform's tables", () => {
    expect(
      run([file('server/src/features/payouts/payouts.queries.ts', "import { jobs } from '../../db/schema';")]),
    ).toHaveLength(1);
  });

  it('lets a listed shared read through, and fails when it writes the table', () => {
    const path = 'server/src/features/payouts/payouts.queries.ts';
    const shared = { [path]: { withdrawals: 'the mismatch list' } };
    const read = "import { withdrawals } from '../../db/schema';\nawait db.select().from(withdrawals);";
    expect(run([file(path, read)], shared)).toEqual([]);
    for (const write of [
      'await db.update(withdrawals).set({})',
      'await db.insert(withdrawals).values({})',
      'await db.delete( withdrawals )',
      'await db.execute(sql`update $' + '{withdrawals} set x = 1`)',
      'await db.execute(sql`delete from $' + '{withdrawals}`)',
    ]) {
      expect(run([file(path, `${read}\n${write}`)], shared), write).toEqual([
        `${path}: writes withdrawals, a table of withdrawals, through a shared read`,
      ]);
    }
  });

  it('fails on a shared read no longer needed', () => {
    const shared = { 'server/src/features/payouts/payouts.queries.ts': { withdrawals: 'gone' } };
    expect(run([file('server/src/features/payouts/payouts.queries.ts', '')], shared)).toEqual([
      'tools/table-owners.mjs: SHARED_READS lists server/src/features/payouts/payouts.queries.ts: withdrawals, no longer needed',
    ]);
  });

  it('passes on the repository as it is (the command `npm run lint` runs)', () => {
    const out = execFileSync('node', ['tools/table-owners.mjs'], { encoding: 'utf8' });
    expect(out).toMatch(/^table-owners: \d+ tables/);
  });
});
