import { MESSAGES, type MessageKey, translate } from '@kamai/contract';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import { currentLocale } from '../i18n';

function isKey(text: string | undefined): text is MessageKey {
  return text !== undefined && text in MESSAGES.en_US;
}

/**
 * An antd Form rule that checks a field with the contract's own schema, so the console refuses exactly
 * what the server refuses, in the catalogue's words.
 */
export function contractRule(schema: z.ZodType, { empty }: { empty?: unknown } = {}): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value === '' || value === null ? empty : value);
      if (result.success) return;
      const key = result.error.issues[0]?.message;
      throw new Error(translate(currentLocale(), isKey(key) ? key : 'validation_failed'));
    },
  };
}
