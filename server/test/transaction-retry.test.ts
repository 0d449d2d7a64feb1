import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../src/db/schema';
import { TX_MAX_ATTEMPTS } from '../src/db/transaction';
import { isDatabaseUnavailable } from '../src/platform/errors';
import { notify } from '../src/platform/notifications.queries';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let userId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  userId = (await ctx.newUser()).id;
});
afterAll(async () => {
  await ctx.close();
});

/** PostgreSQL itself raising the SQLSTATE, as it does for a serialization failure or a deadlock victim. */
const raise = (state: string) =>
  sql.raw(`do $$ begin raise exception 'simulated conflict' using errcode = '${state}'; end $$`);

async function notes(prefix: string) {
  return ctx.db
    .select({ key: notifications.dedupeKey })
    .from(notifications)
    .where(like(notifications.dedupeKey, `${prefix}%`));
}

async function retries(state: string) {
  const samples = await ctx.metric('kamai_db_transaction_retries_total');
  return samples.find((v) => v.labels.sqlstate === state)?.value ?? 0;
}

describe('the transaction helper', () => {
  it.each(['40001', '40P01'])(
    'runs a transaction again after %s; the aborted attempts leave nothing',
    async (state) => {
      let attempt = 0;
      const result = await ctx.db.transaction(async (tx) => {
        attempt += 1;
        await notify(tx, { userId, kind: 'reward_credited', params: {}, dedupeKey: `retry:${state}:${attempt}` });
        if (attempt < 3) await tx.execute(raise(state));
        return attempt;
      });
      expect(result).toBe(3);
      expect(await notes(`retry:${state}:`)).toEqual([{ key: `retry:${state}:3` }]);
      expect(await retries(state)).toBe(2);
    },
  );

  it(`gives up after ${TX_MAX_ATTEMPTS} attempts, with an error that answers 503`, async () => {
    let attempts = 0;
    const failing = ctx.db.transaction(async (tx) => {
      attempts += 1;
      await tx.execute(raise('40001'));
    });
    const error = await failing.catch((e: unknown) => e);
    expect(attempts).toBe(TX_MAX_ATTEMPTS);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('does not retry any other error', async () => {
    let attempts = 0;
    await expect(
      ctx.db.transaction(async (tx) => {
        attempts += 1;
        await tx.execute(raise('23505'));
      }),
    ).rejects.toThrow();
    expect(attempts).toBe(1);
  });

  // Two sessions are needed for a real deadlock: PGlite has one.
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'lets both of two deadlocked transactions through (PostgreSQL picks a victim, it runs again)',
    async () => {
      let arrived = 0;
      const bothHoldOne = async () => {
        arrived += 1;
        while (arrived < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      const lockBoth = (first: number, second: number) =>
        ctx.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${first})`);
          await bothHoldOne();
          await tx.execute(sql`select pg_advisory_xact_lock(${second})`);
          await notify(tx, { userId, kind: 'reward_credited', params: {}, dedupeKey: `deadlock:${first}` });
        });
      const before = await retries('40P01');
      await Promise.all([lockBoth(71, 72), lockBoth(72, 71)]);
      expect((await notes('deadlock:')).map((n) => n.key).sort()).toEqual(['deadlock:71', 'deadlock:72']);
      expect(await retries('40P01')).toBe(before + 1);
      await ctx.db.delete(notifications).where(eq(notifications.userId, userId));
    },
  );
});
