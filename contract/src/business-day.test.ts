import { describe, expect, it } from 'vitest';
import { timeBound } from './admin';
import {
  businessDayOf,
  businessDayStart,
  endOfBusinessDay,
  lastBusinessDays,
  startOfBusinessDay,
} from './business-day';

describe('businessDayStart', () => {
  it('starts the day at midnight in India, 18:30 UTC of the day before', () => {
    expect(businessDayStart(new Date('2026-03-01T18:29:59.999Z')).toISOString()).toBe('2026-02-28T18:30:00.000Z');
    expect(businessDayStart(new Date('2026-03-01T18:30:00.000Z')).toISOString()).toBe('2026-03-01T18:30:00.000Z');
    expect(businessDayStart(new Date('2026-03-01T05:00:00.000Z')).toISOString()).toBe('2026-02-28T18:30:00.000Z');
  });

  it('turns a date-only filter into the India day, [start, next start), the same in the contract and the server', () => {
    expect(startOfBusinessDay('2026-03-01').toISOString()).toBe('2026-02-28T18:30:00.000Z');
    expect(endOfBusinessDay('2026-03-01').toISOString()).toBe('2026-03-01T18:30:00.000Z');
    expect(timeBound('from').parse('2026-03-01')).toEqual(startOfBusinessDay('2026-03-01'));
    expect(timeBound('to').parse('2026-03-01')).toEqual(endOfBusinessDay('2026-03-01'));
    expect(timeBound('to').parse('2026-03-01T10:00:00+05:30').toISOString()).toBe('2026-03-01T04:30:00.000Z');
    // Any instant of the day starts it; its last millisecond is still inside.
    const end = new Date(endOfBusinessDay('2026-12-31').getTime() - 1);
    expect(businessDayStart(end)).toEqual(startOfBusinessDay('2026-12-31'));
  });
});

describe('businessDayOf and lastBusinessDays', () => {
  it('names the day in India across its midnight (18:30 UTC)', () => {
    expect(businessDayOf(new Date('2026-11-24T18:29:59.999Z'))).toBe('2026-11-24');
    expect(businessDayOf(new Date('2026-11-24T18:30:00.000Z'))).toBe('2026-11-25');
    expect(lastBusinessDays(new Date('2026-11-24T18:30:00.000Z'), 3)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ]);
    expect(lastBusinessDays(new Date('2026-03-01T06:00:00.000Z'), 2)).toEqual(['2026-02-28', '2026-03-01']);
  });
});
