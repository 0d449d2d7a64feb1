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
