import { type MessageKey, statusOf } from '@kamai/contract';

/** The one error class services throw: a catalogue key, optional data for the envelope and the message. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly key: MessageKey,
    readonly data: Record<string, unknown> = {},
  ) {
    super(key);
    this.status = statusOf(key);
  }
}

/** A PostgreSQL unique violation (23505), however deeply the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
