import type { Locale } from '@kamai/contract/constants';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { enUS } from './antd/base';

/**
 * antd's texts for each console locale (docs/decisions/console-antd-locales.md), each in its own chunk
 * with its dayjs month names, fetched when the language is first used; English is antd's own.
 */
const LOADERS: Record<Exclude<Locale, 'en_US'>, () => Promise<{ default: AntdLocale }>> = {
  gu_IN: () => import('./antd/gu_IN'),
  hi_IN: () => import('./antd/hi_IN'),
  mr_IN: () => import('./antd/mr_IN'),
  pa_IN: () => import('./antd/pa_IN'),
  zh_CN: () => import('./antd/zh_CN'),
};

const loaded: Partial<Record<Locale, AntdLocale>> = { en_US: enUS };

/** Fetches antd's texts of `locale` (once); `antdLocale` then returns them. */
export async function loadAntdLocale(locale: Locale): Promise<AntdLocale> {
  const known = loaded[locale];
  if (known) return known;
  const { default: texts } = await LOADERS[locale as Exclude<Locale, 'en_US'>]();
  loaded[locale] = texts;
  return texts;
}

/** antd's texts of `locale` once loaded (the console loads a language before switching to it), else English. */
export function antdLocale(locale: Locale): AntdLocale {
  return loaded[locale] ?? enUS;
}
