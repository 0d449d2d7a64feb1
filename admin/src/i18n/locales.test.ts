import { DEFAULT_LOCALE, LINKED_ACTORS, LINKED_STATUSES, LOCALES, POSTING_TYPES } from '@kamai/contract';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('./locales/*.json', { eager: true, import: 'default' });

/** Texts that are the same in every language: the brand name, a currency symbol. Keep this list short. */
const SAME_AS_ENGLISH = new Set(['Kamai', '₹', 'ID', 'UPI', 'CSV']);

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

const tree = (locale: string): Tree => files[`./locales/${locale}.json`] ?? {};
const english = flatten(tree(DEFAULT_LOCALE));

describe('admin console translations', () => {
  it('has a file for each of the six locales', () => {
    expect(Object.keys(files).sort()).toEqual(LOCALES.map((l) => `./locales/${l}.json`).sort());
    expect(english.size).toBeGreaterThan(100);
  });

  describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s', (locale) => {
    const target = flatten(tree(locale));

    it('has every English key and no other', () => {
      expect([...target.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it('translates every text and keeps its {{variables}}', () => {
      for (const [key, text] of english) {
        const other = target.get(key);
        if (other === undefined) continue;
        expect(other.trim(), `${locale} ${key} is empty`).not.toBe('');
        if (!SAME_AS_ENGLISH.has(text)) expect(other, `${locale} ${key} is still English`).not.toBe(text);
        expect(variables(other), `${locale} ${key} variables`).toEqual(variables(text));
      }
    });
  });

  it('names every posting type, linked-account status and event actor of the contract', () => {
    for (const type of POSTING_TYPES) expect(english.get(`postingTypes.${type}`), type).toBeTruthy();
    for (const status of LINKED_STATUSES) expect(english.get(`linked.statuses.${status}`), status).toBeTruthy();
    for (const actor of LINKED_ACTORS) expect(english.get(`linked.actors.${actor}`), actor).toBeTruthy();
  });

  it('has no empty English text', () => {
    for (const [key, text] of english) expect(text.trim(), key).not.toBe('');
  });
});
