import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { idempotencyKeys, jobs, users } from '../src/db/schema';
import { createJobRunner, RUN_DUE_REPEAT_LIMIT } from '../src/platform/jobs';
import { enqueueJob, enqueueOrRevive, type JobRow } from '../src/platform/jobs.queries';
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
  it('with 0 workers runs nothing in the background (a web-only process); runDue still runs the job', async () => {
    await enqueueJob(database.db, {
      kind: 'test.web-only',
      dedupeKey: 'web-only:1',
      runAt: new Date(Date.now() - 1000),
    });
    let ran = 0;
    let periodicRan = 0;
    const runner = createJobRunner({
      db: database.db,
      now: () => new Date(),
      log,
      leaseMs: 60_000,
      idleMs: 20,
      workers: 0,
      handlers: {
        'test.web-only': async () => {
          ran += 1;
        },
      },
      periodic: [
        {
          name: 'test.web-only.periodic',
          everyMs: 10,
          run: async () => {
            periodicRan += 1;
          },
        },
      ],
    });
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ ran, periodicRan }).toEqual({ ran: 0, periodicRan: 0 });
    await runner.stop();
    expect(await runner.runDue()).toBe(1);
    expect(ran).toBe(1);
  });

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

  it('runs a job once more when it is revived while it runs (no lost wake-up), and only once', async () => {
    const dedupeKey = 'revived-while-running:1';
    await enqueueJob(database.db, { kind: 'test.revived', dedupeKey, runAt: new Date(Date.now() - 1000) });
    let runs = 0;
    const runner = createJobRunner({
      db: database.db,
      now: () => new Date(),
      log,
      leaseMs: 60_000,
      idleMs: 20,
      workers: 2,
      handlers: {
        'test.revived': async () => {
          runs += 1;
          // The first run read its state; a change lands meanwhile and asks for the job again.
          if (runs === 1) await enqueueOrRevive(database.db, { kind: 'test.revived', dedupeKey, runAt: new Date() });
        },
      },
    });
    runner.start();
    const done = async () => {
      const [row] = await database.db.select({ doneAt: jobs.doneAt }).from(jobs).where(eq(jobs.dedupeKey, dedupeKey));
      return row?.doneAt !== null && row?.doneAt !== undefined;
    };
    await expect.poll(async () => runs === 2 && (await done()), { timeout: 30_000, interval: 50 }).toBe(true);
    // Finished after the second run: nothing revived it then, so it does not run a third time.
    await new Promise((r) => setTimeout(r, 300));
    await runner.stop();
    expect(runs).toBe(2);
  });

  it('an idle process watches with one loop and one statement a look, and still runs work that another process enqueues', async () => {
    // Counts what the runner asks of the real database: a claim is a transaction, a look a select.
    const asked = { claims: 0, looks: 0 };
    const counted = new Proxy(database.db, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        const counter = key === 'transaction' ? 'claims' : key === 'select' ? 'looks' : undefined;
        if (!counter) return value.bind(target);
        return (...args: unknown[]) => {
          asked[counter] += 1;
          return value.apply(target, args);
        };
      },
    });
    let inFlight = 0;
    let mostInFlight = 0;
    const ran: string[] = [];
    const runner = createJobRunner({
      db: counted,
      now: () => new Date(),
      log,
      leaseMs: 60_000,
      idleMs: 20,
      workers: 4,
      handlers: {
        'test.idle-watch': async (job: JobRow) => {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 100));
          ran.push(job.dedupeKey);
          inFlight -= 1;
        },
      },
    });
    runner.start();
    await new Promise((r) => setTimeout(r, 200));
    // Each loop claimed once at start and found nothing; from then on only the watcher looks.
    asked.claims = 0;
    asked.looks = 0;
    await new Promise((r) => setTimeout(r, 400));
    const idle = { ...asked };
    expect(idle.claims).toBe(0);
    expect(idle.looks).toBeGreaterThan(0);
    // One look per idle period (20 ms) at most, where four loops claiming and looking made eight.
    expect(idle.looks).toBeLessThanOrEqual(400 / 20 + 2);

    // Another process enqueues (no wake-up here): the watcher finds the jobs, and the parked loops
    // join in, so they run side by side.
    const runAt = new Date(Date.now() - 1000);
    for (let i = 0; i < 8; i++) {
      await enqueueJob(database.db, { kind: 'test.idle-watch', dedupeKey: `idle-watch:${i}`, runAt });
    }
    await expect.poll(() => ran.length, { timeout: 20_000, interval: 20 }).toBe(8);
    await runner.stop();
    expect(new Set(ran).size).toBe(8);
    expect(mostInFlight).toBeGreaterThan(1);
  });

  it('runDue stops with an error naming a job that something revives on every run, instead of spinning', async () => {
    const dedupeKey = 'revived-every-run:1';
    await enqueueJob(database.db, { kind: 'test.spinning', dedupeKey, runAt: new Date(Date.now() - 1000) });
    let runs = 0;
    const runner = createJobRunner({
      db: database.db,
      now: () => new Date(),
      log,
      leaseMs: 60_000,
      handlers: {
        'test.spinning': async () => {
          runs += 1;
          await enqueueOrRevive(database.db, { kind: 'test.spinning', dedupeKey, runAt: new Date(Date.now() - 1000) });
        },
      },
    });
    await expect(runner.runDue()).rejects.toThrow(/revived-every-run:1\) ran 50 times in one runDue/);
    expect(runs).toBe(RUN_DUE_REPEAT_LIMIT);
    await database.db.update(jobs).set({ doneAt: new Date() }).where(eq(jobs.dedupeKey, dedupeKey));
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
