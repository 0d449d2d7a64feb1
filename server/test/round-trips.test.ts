import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, notInArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rebates } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, review, withdraw } from './payout-helpers';

// Round trips per money write (docs/decisions/round-trips-per-write.md), counted as node-postgres queries made on
// behalf of
// one request (BEGIN and COMMIT included), as bench/round-trips.ts counts them. PostgreSQL server
// only: PGlite runs in the process and has no client-side query to count.
const counting = new AsyncLocalStorage<string[]>();
const query = pg.Client.prototype.query;

async function roundTrips(send: () => Promise<{ status: number }>) {
  const seen: string[] = [];
  const res = await counting.run(seen, send);
  expect(res.status).toBe(200);
  return seen;
}

describe.skipIf(!process.env.DATABASE_URL)('round trips per money write (PostgreSQL)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      counting.getStore()?.push(String(text).replace(/\s+/g, ' ').slice(0, 80));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterEach(async () => {
    expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await ctx.close();
  });

  it('requests a withdrawal to a verified account in at most 5: session, account with its check, name facts, withdraw_request, signals', async () => {
    const user = await payee(ctx, 200);
    // The sandbox checks the bound number by a job: verified, the bank's name is judged on the request.
    await ctx.worker.jobs.runDue();
    const seen = await roundTrips(() => withdraw(ctx, user.token, { amount: '100' }));
    expect(
      seen.some((text) => text.includes('"settings"."value"')),
      seen.join('\n'),
    ).toBe(true);
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(5);
  });

  it('approves a withdrawal in at most 5: session, BEGIN, lock, one statement for the rest and the answer, COMMIT', async () => {
    const user = await payee(ctx, 200);
    const added = await withdraw(ctx, user.token, { amount: '100' });
    expect(added.status).toBe(200);
    await ctx.adminToken();
    const seen = await roundTrips(() => review(ctx, added.body.data.id, 'approve'));
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(5);
  });

  it('pays an automatic task with two rebate levels in at most 5: session, BEGIN, one read, one statement for the reward, both rebates, the completion and its push, COMMIT', async () => {
    const task = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'hot',
        reward: '1',
        titles: { en_US: 'Counted' },
        verification: { kind: 'automatic', condition: { type: 'income', amount: '0.01', days: 365 } },
      },
      { token: await ctx.adminToken() },
    );
    expect(task.status).toBe(200);
    // Two users above it: the reward owes a level-1 and a level-2 rebate, three postings in all.
    const top = await ctx.newUser();
    const middle = await ctx.newUser({ inviteCode: top.inviteCode });
    const user = await ctx.newUser({ inviteCode: middle.inviteCode });
    const owedBefore = await ctx.db.select({ id: rebates.id }).from(rebates).where(eq(rebates.inviteeId, user.id));
    const seen = await roundTrips(() =>
      ctx.post(`${API}/user/task/finish`, { taskId: task.body.data.id }, { token: user.token }),
    );
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(5);
    const owed = await ctx.db
      .select({ earnerId: rebates.earnerId, level: rebates.level, amount: rebates.amount })
      .from(rebates)
      .where(and(eq(rebates.inviteeId, user.id), notInArray(rebates.id, [0, ...owedBefore.map((r) => r.id)])))
      .orderBy(rebates.level);
    expect(owed).toEqual([
      { earnerId: middle.id, level: 1, amount: 10n },
      { earnerId: top.id, level: 2, amount: 5n },
    ]);
  });
});
