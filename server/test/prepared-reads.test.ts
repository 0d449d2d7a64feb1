import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { namedStatementClient } from '../src/db/pglite-statements';
import { users } from '../src/db/schema';
import { findUserDetailBySession } from '../src/features/users/user-detail.hot.queries';
import { hashToken } from '../src/platform/auth';
import { findLiveSession } from '../src/platform/sessions.queries';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('the hot reads (prepared statements)', () => {
  it('never see what an open transaction has not committed, and never run inside it', async () => {
    const user = await ctx.newUser();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let changed = () => {};
    const inside = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const rolledBack = ctx.db
      .transaction(async (tx) => {
        await tx.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
        changed();
        await gate;
        throw new Error('rolled back on purpose');
      })
      .catch((error: Error) => error.message);
    await inside;
    // On PGlite the read waits for the transaction (one session); on PostgreSQL it reads the last commit.
    const read = ctx.get('/go_user/api/v1/user/user/detail', { token: user.token });
    setTimeout(release, 50);
    const { status, body } = await read;
    expect(status).toBe(200);
    expect(body.data.role).toBe('user');
    expect(await rolledBack).toBe('rolled back on purpose');
  });
});

// PGlite only: how the named statements behave in PGlite's one session.
const dump = inject('pgliteDump');
describe.skipIf(!dump)('named statements on PGlite', () => {
  const fresh = () => PGlite.create({ loadDataDir: new Blob([readFileSync(dump)]) });

  it('give the same values as PGlite’s own query, with and without parsers', async () => {
    const pg = await fresh();
    try {
      const text = `select $1::text as t, $2::bigint as b, $3::timestamptz as at, $4::boolean as f, null::int as n,
        $5::jsonb as j, 12.5::numeric as num, array['a', 'b'] as arr, 7::int as i, '2026-01-02'::date as d`;
      const params = ['x', 9_007_199_254_740_993n, new Date('2026-01-02T03:04:05.678Z'), false, { a: [1] }];
      const parsers = { 1184: (v: string) => v, 1114: (v: string) => v };
      const named = namedStatementClient(pg);
      for (const options of [undefined, { rowMode: 'array' as const, parsers }, { rowMode: 'object' as const }]) {
        const theirs = await pg.query(text, params, options);
        const ours = await named.query(text, params, options);
        expect(ours.rows).toEqual(theirs.rows);
        expect(ours.fields).toEqual(theirs.fields);
      }
    } finally {
      await pg.close();
    }
  });

  it('are parsed again when the schema changes a result type or the statement is gone', async () => {
    const pg = await fresh();
    const database = await openDatabase({ pglite: pg, migrate: false });
    try {
      const [user] = await database.db
        .insert(users)
        .values({ username: 'ddl@example.com', passwordHash: 'x', inviteCode: 'DDLTEST1' })
        .returning();
      await pg.query(
        `insert into sessions (token_hash, user_id, expires_at) values ($1, $2, now() + interval '1 day')`,
        [hashToken('t'), user?.id],
      );
      const read = () => findUserDetailBySession(database.db, hashToken('t'), new Date());
      expect((await read())?.username).toBe('ddl@example.com');
      await pg.exec('alter table users alter column username type varchar(320)');
      expect((await read())?.username).toBe('ddl@example.com');
      await pg.exec('deallocate all');
      expect((await read())?.username).toBe('ddl@example.com');
      expect((await findLiveSession(database.db, hashToken('t'), new Date()))?.id).toBe(user?.id);
    } finally {
      await database.close();
    }
  });

  it('belong to the PGlite instance: a second handle on it shares them; an error leaves the session usable', async () => {
    const pg = await fresh();
    const first = await openDatabase({ pglite: pg, migrate: false });
    const second = await openDatabase({ pglite: pg, migrate: false });
    try {
      expect(await findLiveSession(first.db, 'none', new Date())).toBeUndefined();
      expect(await findUserDetailBySession(second.db, 'none', new Date())).toBeUndefined();
      expect(await findLiveSession(first.db, 'none', new Date())).toBeUndefined();
      const named = namedStatementClient(pg);
      const error = await named.query('select $1::int as n', ['not a number']).catch((e: { code?: string }) => e);
      expect(error).toMatchObject({ code: '22P02' });
      expect((await named.query('select $1::int as n', ['41'])).rows).toEqual([{ n: 41 }]);
      const { rows } = await pg.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
      expect(rows[0]?.n).toBe(3);
    } finally {
      await first.close();
    }
  });
});
