import { describe, expect, it } from 'vitest';
import { businessDayStart } from './business-day';

describe('businessDayStart', () => {
  it('starts the day at midnight in India, 18:30 UTC of the day before', () => {
    expect(businessDayStart(new Date('2026-03-01T18:29:59.999Z')).toISOString()).toBe('2026-02-28T18:30:00.000Z');
    expect(businessDayStart(new Date('2026-03-01T18:30:00.000Z')).toISOString()).toBe('2026-03-01T18:30:00.000Z');
    expect(businessDayStart(new Date('2026-03-01T05:00:00.000Z')).toISOString()).toBe('2026-02-28T18:30:00.000Z');
  });
});
