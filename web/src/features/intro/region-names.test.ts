import { describe, expect, it } from 'vitest';
import { joinNames, PUNJABI_REGION_NAMES, regionNames } from './region-names';

describe('region names in the introduction', () => {
  it('names countries in Gurmukhi for Punjabi, from the table', () => {
    const name = regionNames('pa_IN');
    expect(['IN', 'NP', 'BD', 'AE', 'LK'].map(name)).toEqual(['ਭਾਰਤ', 'ਨੇਪਾਲ', 'ਬੰਗਲਾਦੇਸ਼', 'ਸੰਯੁਕਤ ਅਰਬ ਅਮੀਰਾਤ', 'ਸ੍ਰੀ ਲੰਕਾ']);
  });

  it('keeps every name of the table in Gurmukhi and equal to CLDR (Node carries full ICU)', () => {
    const cldr = new Intl.DisplayNames('pa', { type: 'region' });
    for (const [code, name] of Object.entries(PUNJABI_REGION_NAMES)) {
      expect(name, code).toMatch(/^[\u0A00-\u0A7F\s()]+$/);
      expect(name, code).toBe(cldr.of(code));
    }
  });

  it('uses the browser names for other locales and the code when a region is unknown', () => {
    expect(regionNames('hi_IN')('NP')).toBe('नेपाल');
    expect(regionNames('pa_IN')('ZZ')).not.toBe('');
  });

  it('joins names in Punjabi as CLDR does, and other locales through Intl', () => {
    const cldr = new Intl.ListFormat('pa', { type: 'conjunction' });
    for (const names of [['ਭਾਰਤ'], ['ਭਾਰਤ', 'ਨੇਪਾਲ'], ['ਭਾਰਤ', 'ਨੇਪਾਲ', 'ਕਤਰ']]) {
      expect(joinNames(names, 'pa_IN')).toBe(cldr.format(names));
    }
    expect(joinNames(['India', 'Nepal'], 'en_US')).toBe('India and Nepal');
  });
});
