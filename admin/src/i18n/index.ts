import { DEFAULT_LOCALE, type Locale, type MessageKey, type Messages, toLocale } from '@kamai/contract/constants';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadAntdLocale } from './antd-locales';

const STORAGE_KEY = 'kamai.admin.locale';

type Tree = { [key: string]: string | Tree };

/** The console's texts, one chunk per language, fetched when that language is first used. */
const TEXTS = import.meta.glob<Tree>('./locales/*.json', { import: 'default' });

/** The contract's catalogue (server messages, state and reason labels) in one language, as its own chunk. */
const CATALOGUES: Record<Locale, () => Promise<Messages>> = {
  en_US: () => import('@kamai/contract/messages/en_US').then((m) => m.en_US),
  gu_IN: () => import('@kamai/contract/messages/gu_IN').then((m) => m.gu_IN),
  hi_IN: () => import('@kamai/contract/messages/hi_IN').then((m) => m.hi_IN),
  mr_IN: () => import('@kamai/contract/messages/mr_IN').then((m) => m.mr_IN),
  pa_IN: () => import('@kamai/contract/messages/pa_IN').then((m) => m.pa_IN),
  zh_CN: () => import('@kamai/contract/messages/zh_CN').then((m) => m.zh_CN),
};

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

/**
 * Everything a language needs before the console switches to it: its texts (`translation`), the
 * contract's catalogue (`catalogue`) and antd's texts with dayjs's month names. Loaded once each.
 */
async function loadLocale(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation') && i18n.hasResourceBundle(locale, 'catalogue')) return;
  const texts = TEXTS[`./locales/${locale}.json`];
  if (!texts) throw new Error(`no console texts for ${locale}`);
  const [translation, catalogue] = await Promise.all([texts(), CATALOGUES[locale](), loadAntdLocale(locale)]);
  i18n.addResourceBundle(locale, 'translation', translation, true, true);
  i18n.addResourceBundle(locale, 'catalogue', catalogue, true, true);
}

export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  await i18n.changeLanguage(locale);
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Without storage the choice lasts for this visit.
  }
  document.documentElement.lang = locale.replace('_', '-');
}

export async function initI18n(): Promise<void> {
  const locale = readStoredLocale();
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    ns: ['translation', 'catalogue'],
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  // English is the fallback of a text missing in another language, so it is loaded too.
  await Promise.all([loadLocale(locale), locale === DEFAULT_LOCALE ? undefined : loadLocale(DEFAULT_LOCALE)]);
  // Renders again with the texts now present (init ran before they were added).
  await i18n.changeLanguage(locale);
  document.documentElement.lang = currentLocale().replace('_', '-');
}

/**
 * A catalogue text in the console's language, with `{{var}}` filled from `vars`: the words the server
 * and the user's app use for the same thing (a withdrawal state, a reason, a validation message).
 */
export function catalogueText(key: MessageKey, vars?: Record<string, unknown>): string {
  return i18n.t(key, { ns: 'catalogue', ...vars });
}

export { i18n };
