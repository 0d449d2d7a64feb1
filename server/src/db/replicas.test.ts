import { describe, expect, it } from 'vitest';
import { lagBound, lsnBytes, replicaName } from './replicas';

describe('a replica’s lag', () => {
  it('reads a pg_lsn past 32 bits', () => {
    expect(lsnBytes('0/0')).toBe(0);
    expect(lsnBytes('0/16B3748')).toBe(0x16b3748);
    expect(lsnBytes('1/0')).toBe(2 ** 32);
    expect(lsnBytes('A/FFFFFFFF')).toBeGreaterThan(lsnBytes('A/FFFFFFFE'));
  });

  it('is 0 when the replica has replayed the primary’s position', () => {
    expect(lagBound({ now: 10_000, replayLsn: 500, primaryLsn: 500, samples: [], sinceReplayMs: 90_000 })).toBe(0);
    expect(lagBound({ now: 10_000, replayLsn: 501, primaryLsn: 500, samples: [], sinceReplayMs: null })).toBe(0);
  });

  it('is bounded by the last primary position the replica had replayed', () => {
    const samples = [
      { at: 7_000, lsn: 100 },
      { at: 8_000, lsn: 200 },
      { at: 9_000, lsn: 300 },
    ];
    // Replayed up to 250: it holds what the primary held at 8 000, so it is at most 2 s behind.
    expect(lagBound({ now: 10_000, replayLsn: 250, primaryLsn: 300, samples, sinceReplayMs: null })).toBe(2_000);
    // An idle primary's old last commit does not make a replica that is one checkpoint behind look far behind.
    expect(lagBound({ now: 10_000, replayLsn: 250, primaryLsn: 300, samples, sinceReplayMs: 600_000 })).toBe(2_000);
    // A recent replayed commit is the tighter bound.
    expect(lagBound({ now: 10_000, replayLsn: 250, primaryLsn: 300, samples, sinceReplayMs: 400 })).toBe(400);
  });

  it('grows while replay is paused, and is unknown with nothing to date it', () => {
    const samples = [{ at: 1_000, lsn: 100 }];
    const paused = (now: number) =>
      lagBound({
        now,
        replayLsn: 100,
        primaryLsn: 180,
        samples: [...samples, { at: now, lsn: 180 }],
        sinceReplayMs: null,
      });
    expect(paused(2_000)).toBe(1_000);
    expect(paused(6_000)).toBe(5_000);
    expect(lagBound({ now: 5_000, replayLsn: 10, primaryLsn: 180, samples, sinceReplayMs: null })).toBeUndefined();
  });

  it('names a replica without its password', () => {
    expect(replicaName('postgres://kamai:secret@10.0.0.7:5433/kamai')).toBe('10.0.0.7:5433/kamai');
    expect(replicaName('postgresql://db-replica/kamai')).toBe('db-replica:5432/kamai');
  });
});
