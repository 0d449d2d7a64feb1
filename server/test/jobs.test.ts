import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { idempotencyKeys, jobs, users } from '../src/db/schema';
import { createJobRunner } from '../src/platform/jobs';
import { enqueueJob, type JobRow } from '../src/platform/jobs.queries';
import { pruneOldRows } from '../src/platform/prune';
import { testDatabase } from './helpers';

let database: Database;
const quiet = () => {};
const log = { warn: quiet, error: quiet, info: quiet } as unknown as FastifyBaseLogger;

beforeAll(async () => {
  database = await testDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('the job runner', () => {
  it('runs jobs in several workers side by side, each job exactly once', async () => {
    const count = 40;
    const runAt = new Date(Date.now() - 1000);
    for (let i = 0; i < count; i++) {
      await enqueueJob(database.db, { kind: 'test.side-by-side', dedupeKey: `side-by-side:${i}`, runAt });
    }
    const ran: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runner = createJobRunner({
      db: database.db,
      now: () => new Date(),
      log,
      leaseMs: 60_000,
      idleMs: 20,
      workers: 4,
      handlers: {
        'test.side-by-side': async (job: JobRow) => {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          // Hold the first jobs until four are running at once: proves the loops overlap.
          if (mostInFlight < 4) await Promise.race([gate, new Promise((r) => setTimeout(r, 2000))]);
          else release();
          ran.push(job.dedupeKey);
          inFlight -= 1;
        },
      },
    });
    runner.start();
    await expect
      .poll(
        async () => {
          const [row] = await database.db
            .select({ n: sql<number>`count(*)::int` })
            .from(jobs)
            .where(sql`${jobs.kind} = 'test.side-by-side' and ${jobs.doneAt} is null`);
          return row?.n;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBe(0);
    await runner.stop();
    expect(mostInFlight).toBe(4);
    expect(ran).toHaveLength(count);
    expect(new Set(ran).size).toBe(count);
  });

  it('prunes finished jobs and idempotency keys past their retention, and keeps the rest', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - 10 * 24 * 3_600_000);
    const [user] = await database.db
      .insert(users)
      .values({ username: 'prune@example.com', passwordHash: 'x', inviteCode: 'PRUNE1' })
      .returning({ id: users.id });
    const userId = user?.id ?? 0;
    await database.db.insert(jobs).values([
      { kind: 'test.prune', dedupeKey: 'prune:old-done', runAt: old, doneAt: old },
      { kind: 'test.prune', dedupeKey: 'prune:new-done', runAt: now, doneAt: now },
      { kind: 'test.prune', dedupeKey: 'prune:old-open', runAt: old },
    ]);
    await database.db.insert(idempotencyKeys).values([
      { userId, scope: 'test', key: 'old', requestHash: 'h', createdAt: old },
      { userId, scope: 'test', key: 'new', requestHash: 'h', createdAt: now },
    ]);

    const pruned = await pruneOldRows({
      db: database.db,
      now: () => now,
      jobRetentionHours: 168,
      idempotencyRetentionHours: 72,
    });

    expect(pruned).toEqual({ jobs: 1, keys: 1 });
    const left = await database.db
      .select({ key: jobs.dedupeKey })
      .from(jobs)
      .where(eq(jobs.kind, 'test.prune'))
      .orderBy(jobs.dedupeKey);
    expect(left.map((row) => row.key)).toEqual(['prune:new-done', 'prune:old-open']);
    const keys = await database.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.scope, 'test'));
    expect(keys.map((row) => row.key)).toEqual(['new']);
  });
});
