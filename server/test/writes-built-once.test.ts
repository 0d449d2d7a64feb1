import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobs, notifications, rebates, taskCompletions, withdrawalHistory } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, review, withdraw } from './payout-helpers';

// The money writes' statements are built by drizzle once per shape (docs/decisions/writes-built-once.md):
// a second write of a kind builds no SQL text but the transaction's BEGIN and COMMIT, and every value
// of its rows is its own (a value baked into the first build would reappear here). Both engines.
const counting = new AsyncLocalStorage<{ builds: number }>();
const sqlToQuery = PgDialect.prototype.sqlToQuery;

async function builds<T>(send: () => Promise<T>): Promise<{ result: T; builds: number }> {
  const seen = { builds: 0 };
  const result = await counting.run(seen, send);
  return { result, builds: seen.builds };
}

describe('money writes built once', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    PgDialect.prototype.sqlToQuery = function counted(this: PgDialect, ...args: Parameters<typeof sqlToQuery>) {
      const store = counting.getStore();
      if (store) store.builds += 1;
      return sqlToQuery.apply(this, args);
    } as typeof sqlToQuery;
  });
  afterEach(async () => {
    expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    PgDialect.prototype.sqlToQuery = sqlToQuery;
    await ctx.close();
  });

  it('approves a second withdrawal building only BEGIN and COMMIT, with its own rows', async () => {
    const first = await payee(ctx, 300);
    const second = await payee(ctx, 300);
    const a = await withdraw(ctx, first.token, { amount: '100' });
    const b = await withdraw(ctx, second.token, { amount: '120' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    await ctx.adminToken();
    expect((await review(ctx, a.body.data.id, 'approve')).status).toBe(200);
    const id = b.body.data.id as number;
    const { result, builds: built } = await builds(() => review(ctx, id, 'approve', 'looks fine'));
    expect(result.status).toBe(200);
    expect(built).toBeLessThanOrEqual(2);
    expect(result.body.data).toMatchObject({ id, state: 'approved', username: second.username });
    expect(result.body.data.history.map((h: { state: string }) => h.state)).toEqual(['pending', 'approved']);

    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `withdrawal:${id}`));
    expect(audit).toMatchObject({
      action: 'withdrawal.approve',
      before: { state: 'pending' },
      after: { state: 'approved', reason: 'looks fine' },
    });
    const notes = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, second.id), eq(notifications.kind, 'withdrawal_approved')));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      dedupeKey: `withdrawal:${id}:approved`,
      params: { withdrawalId: id, amount: '120.00' },
    });
    const [job] = await ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payout:dispatch:${id}`));
    expect(job?.payload).toEqual({ withdrawalId: id });
    const history = await ctx.db.select().from(withdrawalHistory).where(eq(withdrawalHistory.withdrawalId, id));
    expect(history.find((h) => h.toState === 'approved')).toMatchObject({ reason: 'looks fine', fromState: 'pending' });
  });

  it('pays a second task with its rebate building only BEGIN and COMMIT, with its own rows', async () => {
    const admin = await ctx.adminToken();
    const addTask = async (reward: string) => {
      const task = await ctx.post(
        `${API}/admin/task/add`,
        {
          section: 'hot',
          reward,
          titles: { en_US: `Built once ${reward}` },
          verification: { kind: 'automatic', condition: { type: 'income', amount: '0.01', days: 365 } },
        },
        { token: admin },
      );
      expect(task.status).toBe(200);
      return task.body.data.id as number;
    };
    const inviter = await ctx.newUser();
    const user = await ctx.newUser({ inviteCode: inviter.inviteCode });
    const one = await addTask('1');
    const two = await addTask('2');
    expect((await ctx.post(`${API}/user/task/finish`, { taskId: one }, { token: user.token })).status).toBe(200);
    const { result, builds: built } = await builds(() =>
      ctx.post(`${API}/user/task/finish`, { taskId: two }, { token: user.token }),
    );
    expect(result.status).toBe(200);
    expect(built).toBeLessThanOrEqual(2);
    expect(result.body.data).toMatchObject({ taskId: two, reward: '2.00' });
    const [completion] = await ctx.db
      .select()
      .from(taskCompletions)
      .where(and(eq(taskCompletions.userId, user.id), eq(taskCompletions.taskId, two)));
    expect(completion).toBeDefined();
    const owed = await ctx.db.select().from(rebates).where(eq(rebates.inviteeId, user.id));
    expect(owed.map((r) => r.sourcePostingId).sort()).toEqual([...new Set(owed.map((r) => r.sourcePostingId))].sort());
    expect(owed.find((r) => r.sourcePostingId === completion?.postingId)).toMatchObject({
      earnerId: inviter.id,
      level: 1,
    });
  });
});
