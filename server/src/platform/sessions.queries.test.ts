import { describe, expect, it } from 'vitest';
import { isoString } from './sessions.queries';

describe('isoString', () => {
  it('writes what toISOString writes, within a second, across seconds and at the edges of the range', () => {
    const times = [
      0, 1, 999, 1000, 1001, -1, -999, -1000, -1001, 1_764_220_000_000, 1_764_220_000_123, 1_764_220_000_999,
      1_764_220_001_000, 1_764_220_000_456, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15,
      -8.64e15,
    ];
    for (const ms of times) expect(isoString(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('throws as toISOString does on an invalid date', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
