import { LOCALES, type Locale, type PageSlug, type PageText } from '@kamai/contract';
import { en_US } from './en_US';
import { gu_IN } from './gu_IN';
import { hi_IN } from './hi_IN';
import { mr_IN } from './mr_IN';
import { pa_IN } from './pa_IN';
import type { DefaultPages } from './types';
import { zh_CN } from './zh_CN';

const BY_LOCALE: Record<Locale, DefaultPages> = { en_US, gu_IN, hi_IN, mr_IN, pa_IN, zh_CN };

/**
 * What a fresh install shows until an operator saves the page (a money app must not open
 * with an empty Privacy policy): Help, Terms and Privacy written in all six languages.
 */
export function defaultPageTexts(slug: PageSlug): Partial<Record<Locale, PageText>> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, BY_LOCALE[locale][slug]]));
}
