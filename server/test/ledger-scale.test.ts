import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { post } from '../src/features/wallet/wallet.ledger';
import { testDatabase } from './helpers';

// A posting's cost must not grow with the number of accounts: `ledger_post` finds and locks the
// accounts it touches through their indexes (db/functions/20_ledger_post.sql). PostgreSQL server only:
// the statistics view that counts the rows a transaction read is PostgreSQL's.
describe.skipIf(!process.env.DATABASE_URL)('ledger_post among many accounts (PostgreSQL)', () => {
  let database: Database;
  /** The rows of a raw statement (both drivers answer `{ rows }`). */
  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

  beforeAll(async () => {
    database = await testDatabase();
    await database.db.execute(sql`
      insert into users (username, password_hash, invite_code)
        select 'scale' || g || '@test.kamai.local', 'x', 'SCALE' || lpad(g::text, 8, '0')
        from generate_series(1, 20000) g`);
    await database.db.execute(sql`
      insert into accounts (user_id, kind) select id, 'wallet' from users where username like 'scale%'`);
    await database.db.execute(sql`analyze accounts`);
  });
  afterAll(async () => {
    await database.close();
  });

  it('posts between a user account by (user, kind), one by id and a platform account reading a handful of account rows, not all of them', async () => {
    const [a, b] = rowsOf<{ id: string; user_id: string }>(
      await database.db.execute(
        sql`select id::text, user_id::text from accounts where kind = 'wallet' and user_id is not null order by id desc limit 2`,
      ),
    );
    if (!a || !b) throw new Error('no seeded accounts');
    const read = await database.db.transaction(async (tx) => {
      // This transaction's own counts (pg_stat_xact_*): exact, and no other session's.
      const accountRowsRead = async () => {
        const counted = rowsOf<{ n: string }>(
          await tx.execute(
            sql`select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text as n from pg_stat_xact_user_tables where relname = 'accounts'`,
          ),
        );
        return Number(counted[0]?.n ?? 0);
      };
      const before = await accountRowsRead();
      const credited = await post(tx, {
        type: 'manual_credit',
        idempotencyKey: 'scale:credit',
        entries: [
          { account: { kind: 'platform_revenue' }, amount: -500n },
          { account: { userId: Number(a.user_id), kind: 'wallet' }, amount: 500n },
        ],
      });
      expect(credited.created).toBe(true);
      for (let i = 0; i < 5; i += 1) {
        const moved = await post(tx, {
          type: 'manual_credit',
          idempotencyKey: `scale:move:${i}`,
          entries: [
            { account: { accountId: Number(a.id) }, amount: -10n },
            { account: { userId: Number(b.user_id), kind: 'wallet' }, amount: 10n },
          ],
        });
        expect(moved.created).toBe(true);
      }
      return (await accountRowsRead()) - before;
    });
    // A handful of rows a posting (its accounts, found and locked by index), not the 20,000.
    expect(read).toBeLessThan(100);
  });
});
