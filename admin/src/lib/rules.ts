import { isMessageKey } from '@kamai/contract/constants';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import { catalogueText } from '../i18n';

/**
 * An antd Form rule that checks a field with the contract's own schema, so the console refuses exactly
 * what the server refuses, in the catalogue's words. `schema` may be a loader of it, fetched on the
 * first check, for a page that should not carry zod before it validates (the login).
 */
export function contractRule(
  schema: z.ZodType | (() => Promise<z.ZodType>),
  { empty }: { empty?: unknown } = {},
): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const checked = typeof schema === 'function' ? await schema() : schema;
      const result = checked.safeParse(value === '' || value === null ? empty : value);
      if (result.success) return;
      const key = result.error.issues[0]?.message;
      throw new Error(catalogueText(isMessageKey(key) ? key : 'validation_failed'));
    },
  };
}
