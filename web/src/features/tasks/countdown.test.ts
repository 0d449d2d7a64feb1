import { describe, expect, it } from 'vitest';
import { countdown } from './countdown';

const at = Date.UTC(2026, 10, 25, 12, 0, 0);
const later = (s: number) => at + s * 1000;

describe('countdown', () => {
  it('splits days off and pads the clock', () => {
    expect(countdown(later(2 * 86_400 + 3 * 3600 + 14 * 60 + 5), at)).toEqual({ days: 2, clock: '03:14:05' });
    expect(countdown(later(59), at)).toEqual({ days: 0, clock: '00:00:59' });
  });

  it('rounds a part second up, and is over at the end itself', () => {
    expect(countdown(at + 400, at)).toEqual({ days: 0, clock: '00:00:01' });
    expect(countdown(at, at)).toBeUndefined();
    expect(countdown(at - 1, at)).toBeUndefined();
    expect(countdown(Number.NaN, at)).toBeUndefined();
  });
});
