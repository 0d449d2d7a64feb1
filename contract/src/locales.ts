export const LOCALES = ['en_US', 'gu_IN', 'hi_IN', 'mr_IN', 'pa_IN', 'zh_CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en_US';

/** Names shown in the language picker, each in its own language. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en_US: 'English',
  gu_IN: 'ગુજરાતી',
  hi_IN: 'हिन्दी',
  mr_IN: 'मराठी',
  pa_IN: 'ਪੰਜਾਬੀ',
  zh_CN: '简体中文',
};

/** BCP 47 tags used for Intl formatting (docs/design.md "Product rules": Indian grouping for English too). */
export const LOCALE_INTL: Record<Locale, string> = {
  en_US: 'en-IN',
  gu_IN: 'gu-IN',
  hi_IN: 'hi-IN',
  mr_IN: 'mr-IN',
  pa_IN: 'pa-IN',
  zh_CN: 'zh-CN',
};

/** `hi_IN`, `hi-IN`, `HI-in` → `hi_IN`; a bare language (`hi`) maps to its only supported region. */
export function toLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const [lang = '', region] = tag.trim().replace('_', '-').split('-');
  const wanted = region ? `${lang.toLowerCase()}_${region.toUpperCase()}` : undefined;
  const exact = LOCALES.find((l) => l === wanted);
  if (exact) return exact;
  return LOCALES.find((l) => l.startsWith(`${lang.toLowerCase()}_`));
}

/** Picks the best supported locale from an Accept-Language header, honouring q-values. */
export function pickLocale(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    const locale = toLocale(entry.tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
