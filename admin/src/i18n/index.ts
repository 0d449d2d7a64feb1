import { DEFAULT_LOCALE, type Locale, toLocale } from '@kamai/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en_US from './locales/en_US.json';
import gu_IN from './locales/gu_IN.json';
import hi_IN from './locales/hi_IN.json';
import mr_IN from './locales/mr_IN.json';
import pa_IN from './locales/pa_IN.json';
import zh_CN from './locales/zh_CN.json';

const STORAGE_KEY = 'kamai.admin.locale';
/** The console is small: every language is bundled. */
const resources = { en_US, gu_IN, hi_IN, mr_IN, pa_IN, zh_CN } satisfies Record<Locale, unknown>;

function readStoredLocale(): Locale {
  try {
    return toLocale(localStorage.getItem(STORAGE_KEY)) ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/** The locale in use, as the API expects it in Accept-Language (`hi_IN`). */
export function currentLocale(): Locale {
  return toLocale(i18n.language) ?? DEFAULT_LOCALE;
}

export async function changeLocale(locale: Locale): Promise<void> {
  await i18n.changeLanguage(locale);
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Without storage the choice lasts for this visit.
  }
  document.documentElement.lang = locale.replace('_', '-');
}

export async function initI18n(): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: readStoredLocale(),
    fallbackLng: DEFAULT_LOCALE,
    resources: Object.fromEntries(Object.entries(resources).map(([l, r]) => [l, { translation: r }])),
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  document.documentElement.lang = currentLocale().replace('_', '-');
}

export { i18n };
