import { z } from 'zod';

/** Every response body (docs/design.md "API contract"). */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), key: z.string(), data });
}

export type Envelope<T> = { code: number; message: string; key: string; data: T };

/** `data.fields` of a validation failure: field path → catalogue key. */
export type FieldErrors = Record<string, string>;
