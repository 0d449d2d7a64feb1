import type { Locale } from '@kamai/contract';
import { DEFAULT_LOCALE, toLocale } from '@kamai/contract/constants';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyAntdLocale } from './antd-locale';
import { en } from './resources';

const STORAGE_KEY = 'kamai.locale';

/**
 * Every other locale is one chunk of all its namespaces (`locales/hi_IN.ts`), fetched only when that
 * language is chosen: one request, and one entry here rather than one per namespace on the first route.
 */
const lazyBundles = import.meta.glob<Record<string, Record<string, unknown>>>('./locales/*.ts', {
  import: 'default',
});

function readStoredLocale(): Locale {
  try {
    return toLocale(localStorage.getItem(STORAGE_KEY)) ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this visit only.
  }
}

async function loadBundles(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'common')) return;
  const load = lazyBundles[`./locales/${locale}.ts`];
  if (!load) return;
  for (const [path, texts] of Object.entries(await load())) {
    i18n.addResourceBundle(locale, path.slice(path.lastIndexOf('/') + 1, -'.json'.length), texts);
  }
}

/** The locale in use, as the API expects it in Accept-Language (`hi_IN`). */
export function currentLocale(): Locale {
  return toLocale(i18n.language) ?? DEFAULT_LOCALE;
}

export async function changeLocale(locale: Locale): Promise<void> {
  await loadBundles(locale);
  await i18n.changeLanguage(locale);
  applyAntdLocale();
  storeLocale(locale);
  document.documentElement.lang = locale.replace('_', '-');
}

let started: Promise<void> | undefined;
let complete: Promise<void> | undefined;

async function start(): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    resources: { [DEFAULT_LOCALE]: en },
    ns: Object.keys(en),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  await changeLocale(readStoredLocale()).catch(() => changeLocale(DEFAULT_LOCALE));
}

/**
 * Starts i18n in the stored language with the English texts of Home's first screen (once; main.tsx
 * calls it before the first render, so Home does not wait for the texts it does not show).
 */
export function startI18n(): Promise<void> {
  started ??= start();
  return started;
}

/**
 * i18n with every English namespace: what a page or form other than Home's first screen waits for
 * before it renders (routes.ts, the form dialog), and what tests start. The other locales load whole
 * (`loadBundles`); English's remaining namespaces are one chunk, fetched once.
 */
export function initI18n(): Promise<void> {
  complete ??= Promise.all([startI18n(), import('./resources-later')]).then(([, { enLater }]) => {
    for (const [namespace, texts] of Object.entries(enLater)) {
      i18n.addResourceBundle(DEFAULT_LOCALE, namespace, texts, true, true);
    }
  });
  return complete;
}

/** Settles when the stored language is in use: a request made before the first render waits for it. */
export function i18nReady(): Promise<void> {
  return startI18n().catch(() => undefined);
}

export { i18n };
