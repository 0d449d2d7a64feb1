import { describe, expect, it } from 'vitest';
import { codeGroups, durationParts, formatClock, formatLinkedPhone } from './format';

describe('linked account formatting', () => {
  it('shows the code in two groups of four with * until it arrives', () => {
    expect(codeGroups(undefined)).toEqual(['****', '****']);
    expect(codeGroups('ABCD2345')).toEqual(['ABCD', '2345']);
    expect(codeGroups('ABC')).toEqual(['ABC*', '****']);
  });

  it('writes numbers in the international form', () => {
    expect(formatLinkedPhone('919876543210')).toBe('+91 98765 43210');
  });

  it('picks the largest unit and pads minutes under an hour count', () => {
    expect(durationParts(7500, 'en_US')).toEqual({
      unit: 'hours',
      values: { hours: '2', minutes: '05', seconds: '0' },
    });
    expect(durationParts(720, 'en_US').unit).toBe('minutes');
    expect(durationParts(720, 'en_US').values.minutes).toBe('12');
    expect(durationParts(40.9, 'en_US')).toMatchObject({ unit: 'seconds', values: { seconds: '40' } });
    expect(durationParts(-5, 'en_US').values.seconds).toBe('0');
  });

  it('counts down as m:ss', () => {
    expect(formatClock(179.2)).toBe('3:00');
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(-1)).toBe('0:00');
  });
});
