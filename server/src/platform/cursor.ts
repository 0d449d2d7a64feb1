import { AppError } from './errors';

/** Keyset cursors are opaque to clients: base64url of the last row's sort key. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A cursor's row id: a positive safe integer (ids are `bigint` identities starting at 1). */
export function isRowId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

export function decodeCursor<T>(cursor: string | undefined, check: (value: unknown) => value is T): T | undefined {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (check(value)) return value;
  } catch {
    // falls through to the validation error
  }
  throw new AppError('validation_failed', { fields: { cursor: 'validation_failed' } });
}

/**
 * One keyset page of a contract's `{ items, nextCursor }` shape, from rows fetched with `limit + 1`:
 * the extra row only tells that another page exists. `cursorOf` gives the sort key of the page's last
 * row, which the next page starts after.
 */
export function keysetPage<T>(
  rows: readonly T[],
  limit: number,
  cursorOf: (last: T) => unknown,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(cursorOf(last)) : null };
}
