import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './catalogue';
import { DEFAULT_LOCALE, LOCALES } from './locales';
import { MESSAGES } from './messages';

const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the message catalogue', () => {
  it.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))(
    '%s translates every key and keeps its {{variables}}',
    (locale) => {
      for (const key of Object.keys(CATALOGUE) as (keyof typeof CATALOGUE)[]) {
        const english = MESSAGES[DEFAULT_LOCALE][key];
        const text = MESSAGES[locale][key];
        expect(text.trim(), `${locale} ${key}`).not.toBe('');
        expect(text, `${locale} ${key} is still English`).not.toBe(english);
        expect(variables(text), `${locale} ${key}`).toEqual(variables(english));
      }
    },
  );
});
