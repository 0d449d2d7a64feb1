import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './constants';

/** Query of every list (docs/design.md "API contract"): `limit` and an opaque keyset `cursor`. */
export const pageQuery = z.object({
  limit: z.coerce
    .number({ error: 'validation_failed' })
    .int('validation_failed')
    .min(1, 'validation_failed')
    .max(PAGE_LIMIT_MAX, 'validation_failed')
    .default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
