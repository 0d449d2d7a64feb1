import { readFileSync } from 'node:fs';
import { LOCALES, type Locale, PAGE_SLUGS } from '@kamai/contract';
import { describe, expect, it } from 'vitest';
import { defaultPageTexts } from '../src/features/account/default-pages';

/**
 * The default Help, Terms and Privacy against the app's screens: a name they put in quotes (“…”) is the
 * name the app shows for a screen (`common:screens`) or a row of the My menu (`users:entries`), in the
 * same language, so a text never sends the user to a screen that does not exist or is called otherwise.
 */
type Tree = { [key: string]: string | Tree };

function webTexts(locale: Locale, namespace: string): Tree {
  return JSON.parse(
    readFileSync(new URL(`../../web/src/i18n/locales/${locale}/${namespace}.json`, import.meta.url), 'utf8'),
  ) as Tree;
}

function strings(tree: Tree | string | undefined): Record<string, string> {
  if (!tree || typeof tree === 'string') return {};
  return Object.fromEntries(Object.entries(tree).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function namesOf(locale: Locale) {
  const screens = strings(webTexts(locale, 'common').screens);
  const rows = strings(webTexts(locale, 'users').entries);
  return { screens, rows, all: new Set([...Object.values(screens), ...Object.values(rows)]) };
}

function quoted(text: string): string[] {
  return [...text.matchAll(/“([^”]+)”/g)].map((m) => m[1] ?? '');
}

function pageTexts(locale: Locale): string[] {
  return PAGE_SLUGS.flatMap((slug) => {
    const page = defaultPageTexts(slug)[locale];
    return page ? [page.title, page.body, ...page.faq.flatMap((item) => [item.question, item.answer])] : [];
  });
}

describe('default Help, Terms and Privacy name the screens the app has', () => {
  it.each(LOCALES)('%s: every quoted name is a screen or a My menu row of the app', (locale) => {
    const { all } = namesOf(locale);
    const names = pageTexts(locale).flatMap(quoted);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(all, `“${name}” in ${locale}`).toContain(name);
  });

  it.each(LOCALES)('%s: the withdrawal answer sends the user to My account and to the withdrawal records', (locale) => {
    const { screens, rows } = namesOf(locale);
    const answer = defaultPageTexts('help')[locale]?.faq[0]?.answer ?? '';
    expect(quoted(answer)).toEqual([screens.user, rows.withdraw, screens.reviews]);
  });

  it.each(LOCALES)('%s: each page title is the name of its screen', (locale) => {
    const { screens } = namesOf(locale);
    for (const slug of PAGE_SLUGS) expect(defaultPageTexts(slug)[locale]?.title).toBe(screens[slug]);
  });

  it('names no screen the app does not have (English)', () => {
    for (const text of pageTexts('en_US')) {
      expect(text).not.toMatch(
        /\b(Wallet|Profile|Review list|Referral list|Payment Method)\b|\b(under|in|Open) Withdrawals\b/,
      );
    }
  });
});
