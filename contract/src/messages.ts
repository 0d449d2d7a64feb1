import type { Messages } from './catalogue';
import type { Locale } from './locales';
import { en_US } from './messages/en_US';
import { gu_IN } from './messages/gu_IN';
import { hi_IN } from './messages/hi_IN';
import { mr_IN } from './messages/mr_IN';
import { pa_IN } from './messages/pa_IN';
import { zh_CN } from './messages/zh_CN';

/** Catalogue texts by locale; the web app loads them as its `errors` namespace. */
export const MESSAGES: Record<Locale, Messages> = { en_US, gu_IN, hi_IN, mr_IN, pa_IN, zh_CN };

/** The catalogue text of `key` in `locale`, with `{{var}}` filled from `vars`. */
export function translate(locale: Locale, key: keyof Messages, vars?: Record<string, unknown>): string {
  const template = MESSAGES[locale][key] ?? MESSAGES.en_US[key];
  if (!vars) return template;
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
