import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../db/replicas';
import type { Db } from '../db/types';
import { memoryRecentWrites, type ReadRoute, replicaReads } from './replica-reads';

/**
 * The routing decisions, with stand-ins for the two databases (the read only says which it was given);
 * server/reliability/replicas.test.ts runs the same routing against a real primary and standby.
 */
const primary = { name: 'primary' } as unknown as Db;
const standby = { name: 'standby' } as unknown as Db;
const which = async (db: Db) => (db as unknown as { name: string }).name;

function replicas(state: { usable: boolean }): ReplicaSet & { downs: string[] } {
  const downs: string[] = [];
  return {
    downs,
    staleBoundMs: 4_000,
    pick: () => (state.usable ? { name: 'r1', db: standby } : undefined),
    markDown: (name) => {
      downs.push(name);
      state.usable = false;
    },
    status: () => [],
    check: async () => undefined,
    close: async () => undefined,
  };
}

function setup(usable = true) {
  let clock = 1_000_000;
  const routes: ReadRoute[] = [];
  const set = replicas({ usable });
  const reads = replicaReads({
    primary,
    replicas: set,
    recent: memoryRecentWrites(4_000, () => clock),
    onRead: (route) => routes.push(route),
  });
  return { reads, routes, set, tick: (ms: number) => (clock += ms) };
}

describe('reads that may be stale', () => {
  it('go to a caught-up replica, and to the primary when none is', async () => {
    const { reads, routes, set } = setup();
    expect(await reads.read(7, which)).toBe('standby');
    expect(await reads.read(undefined, which)).toBe('standby');
    set.markDown('r1');
    expect(await reads.read(7, which)).toBe('primary');
    expect(routes).toEqual([
      { target: 'replica', replica: 'r1' },
      { target: 'replica', replica: 'r1' },
      { target: 'primary', reason: 'no_replica' },
    ]);
  });

  it('read the primary for the writer’s window after they wrote, and only for them', async () => {
    const { reads, routes, tick } = setup();
    await reads.wrote(7);
    expect(await reads.read(7, which)).toBe('primary');
    expect(await reads.read(8, which)).toBe('standby');
    tick(3_999);
    expect(await reads.read(7, which)).toBe('primary');
    tick(1);
    expect(await reads.read(7, which)).toBe('standby');
    expect(routes.map((r) => (r.target === 'primary' ? r.reason : r.target))).toEqual([
      'recent_write',
      'replica',
      'recent_write',
      'replica',
    ]);
  });

  it('run again on the primary when the replica’s connection breaks, and skip it after', async () => {
    const { reads, routes, set } = setup();
    const broken = Object.assign(new Error('Connection terminated unexpectedly'), {});
    const answer = await reads.read(7, async (db) => {
      if (db === standby) throw broken;
      return which(db);
    });
    expect(answer).toBe('primary');
    expect(set.downs).toEqual(['r1']);
    expect(routes).toEqual([{ target: 'primary', reason: 'replica_failed' }]);
  });

  it('hand on an error that is the read’s own, not the replica’s', async () => {
    const { reads, set } = setup();
    const own = Object.assign(new Error('column "nope" does not exist'), { code: '42703' });
    await expect(reads.read(7, () => Promise.reject(own))).rejects.toBe(own);
    expect(set.downs).toEqual([]);
  });
});
