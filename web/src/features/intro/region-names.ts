import { intlTag, type Locale } from '@kamai/contract/constants';

/**
 * Region names in Punjabi (Gurmukhi), from CLDR (the names Node's full ICU gives for `pa`). Some
 * browsers' ICU (Debian's Chromium among them) has no Punjabi region names and shows English, so the
 * countries the introduction is likely to name are kept here; other locales' browser names are native.
 */
export const PUNJABI_REGION_NAMES: Readonly<Record<string, string>> = {
  IN: 'ਭਾਰਤ',
  NP: 'ਨੇਪਾਲ',
  BD: 'ਬੰਗਲਾਦੇਸ਼',
  AE: 'ਸੰਯੁਕਤ ਅਰਬ ਅਮੀਰਾਤ',
  LK: 'ਸ੍ਰੀ ਲੰਕਾ',
  PK: 'ਪਾਕਿਸਤਾਨ',
  BT: 'ਭੂਟਾਨ',
  MV: 'ਮਾਲਦੀਵ',
  MM: 'ਮਿਆਂਮਾਰ (ਬਰਮਾ)',
  AF: 'ਅਫ਼ਗਾਨਿਸਤਾਨ',
  SA: 'ਸਾਊਦੀ ਅਰਬ',
  QA: 'ਕਤਰ',
  OM: 'ਓਮਾਨ',
  KW: 'ਕੁਵੈਤ',
  BH: 'ਬਹਿਰੀਨ',
  MY: 'ਮਲੇਸ਼ੀਆ',
  SG: 'ਸਿੰਗਾਪੁਰ',
  ID: 'ਇੰਡੋਨੇਸ਼ੀਆ',
  TH: 'ਥਾਈਲੈਂਡ',
  PH: 'ਫਿਲੀਪੀਨਜ',
  GB: 'ਯੂਨਾਈਟਡ ਕਿੰਗਡਮ',
  US: 'ਸੰਯੁਕਤ ਰਾਜ (ਅਮਰੀਕਾ)',
  CA: 'ਕੈਨੇਡਾ',
  AU: 'ਆਸਟ੍ਰੇਲੀਆ',
  NZ: 'ਨਿਊਜ਼ੀਲੈਂਡ',
  DE: 'ਜਰਮਨੀ',
  IT: 'ਇਟਲੀ',
  FR: 'ਫ਼ਰਾਂਸ',
  NL: 'ਨੀਦਰਲੈਂਡ',
  IE: 'ਆਇਰਲੈਂਡ',
  KE: 'ਕੀਨੀਆ',
  ZA: 'ਦੱਖਣੀ ਅਫਰੀਕਾ',
  NG: 'ਨਾਈਜੀਰੀਆ',
  MU: 'ਮੌਰੀਸ਼ਸ',
  FJ: 'ਫ਼ਿਜੀ',
  JP: 'ਜਪਾਨ',
  CN: 'ਚੀਨ',
};

/** A region's name in the reader's language: the table above for Punjabi, else the browser's own names. */
export function regionNames(locale: Locale): (code: string) => string {
  const browser = new Intl.DisplayNames(intlTag(locale), { type: 'region', fallback: 'code' });
  return (code) => (locale === 'pa_IN' ? PUNJABI_REGION_NAMES[code] : undefined) ?? browser.of(code) ?? code;
}

/**
 * Names joined as "a, b and c" in the reader's language. Punjabi follows CLDR's pattern ("a, b ਅਤੇ c")
 * by hand: the same browsers' ICU has no Punjabi list patterns either and says "and".
 */
export function joinNames(names: string[], locale: Locale): string {
  if (locale !== 'pa_IN') return new Intl.ListFormat(intlTag(locale), { type: 'conjunction' }).format(names);
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')} ਅਤੇ ${names.at(-1)}`;
}
