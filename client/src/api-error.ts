import type { FieldErrors } from '@kamai/contract';

/** A failed call: the envelope's code, catalogue key, translated message and data. */
export class ApiError extends Error {
  readonly code: number;
  readonly key: string;
  readonly data: unknown;

  constructor(init: { code: number; key: string; message: string; data?: unknown }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.key = init.key;
    this.data = init.data ?? null;
  }

  /** Field name → catalogue key, present on validation failures. */
  get fields(): FieldErrors | undefined {
    const fields = (this.data as { fields?: unknown } | null)?.fields;
    return fields && typeof fields === 'object' ? (fields as FieldErrors) : undefined;
  }
}
