import { DEFAULT_LOCALE, LOCALES } from '@kamai/contract/constants';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });

/** Texts that are the same in every language: the brand name, India's payment system. Keep this list short. */
const SAME_AS_ENGLISH = new Set(['Kamai', 'UPI']);

function bundle(locale: string): Record<string, Tree> {
  const prefix = `./locales/${locale}/`;
  return Object.fromEntries(
    Object.entries(files)
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, tree]) => [path.slice(prefix.length, -'.json'.length), tree]),
  );
}

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

/** The other texts a text nests (`$t(common:screens.help)`): a screen's one name, the same in every language. */
function nestings(text: string): string[] {
  return [...text.matchAll(/\$t\(([^)]+)\)/g)].map((m) => m[1] ?? '').sort();
}

/** A text that is only another text (`$t(common:screens.home)`) has nothing of its own to translate. */
function onlyNesting(text: string): boolean {
  return text.replace(/\$t\([^)]+\)/g, '').trim() === '';
}

const english = bundle(DEFAULT_LOCALE);
const others = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

describe('web translations', () => {
  it('has English texts to compare against', () => {
    expect(Object.keys(english).sort()).toEqual([
      'auth',
      'common',
      'complaints',
      'intro',
      'linked',
      'notices',
      'payoutAccounts',
      'referrals',
      'survey',
      'tasks',
      'users',
      'wallet',
      'withdrawals',
    ]);
  });

  describe.each(others)('%s', (locale) => {
    const translated = bundle(locale);

    it('has the same namespaces as English', () => {
      expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
    });

    describe.each(Object.keys(english))('namespace %s', (namespace) => {
      const source = flatten(english[namespace] ?? {});
      const target = flatten(translated[namespace] ?? {});

      it('has every English key and no other', () => {
        expect([...target.keys()].sort()).toEqual([...source.keys()].sort());
      });

      it('translates every text and keeps its {{variables}}', () => {
        for (const [key, text] of source) {
          const other = target.get(key);
          if (other === undefined) continue;
          expect(other.trim(), `${locale} ${namespace}:${key} is empty`).not.toBe('');
          if (!SAME_AS_ENGLISH.has(text) && !onlyNesting(text)) {
            expect(other, `${locale} ${namespace}:${key} is still English`).not.toBe(text);
          }
          expect(variables(other), `${locale} ${namespace}:${key} variables`).toEqual(variables(text));
          expect(nestings(other), `${locale} ${namespace}:${key} nested texts`).toEqual(nestings(text));
        }
      });
    });
  });
});
