import { z } from 'zod';
import { AMOUNT_TEXT_MAX } from './constants';

/** Paise (bigint) → rupee string with two decimals: 12050n → "120.50". */
export function formatRupees(paise: bigint): string {
  const negative = paise < 0n;
  const abs = negative ? -paise : paise;
  const rupees = abs / 100n;
  const rest = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${rupees}.${rest}`;
}

/**
 * A message variable that is money, as the database's refusals and the withdrawal limits carry it: paise
 * as text. Whoever shows the message formats it (`formatMoneyVars`): the server as the API's rupee string,
 * the web in the reader's locale. The database itself formats no money (docs/decisions/sql-functions.md).
 */
export const paiseVar = z.object({ paise: z.string().regex(/^-?\d{1,19}$/) });
export type PaiseVar = z.infer<typeof paiseVar>;

/** A message's variables with each `{paise}` one formatted by `format`; the others as they are. */
export function formatMoneyVars(
  vars: Record<string, unknown>,
  format: (paise: bigint) => string = formatRupees,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(vars)) {
    const money = paiseVar.safeParse(value);
    out[name] = money.success ? format(BigInt(money.data.paise)) : (value as string | number);
  }
  return out;
}

/** A rupee amount (number or string, at most two decimals) → paise, or undefined when malformed. */
export function parseRupees(value: string | number): bigint | undefined {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** A rupee amount as the API accepts it (number or string, > 0, at most two decimals) → paise. */
export const rupeeAmountField = z
  .union([z.string().max(AMOUNT_TEXT_MAX, 'invalid_amount'), z.number()], { error: 'invalid_amount' })
  .transform((value, ctx) => {
    const paise = parseRupees(value);
    if (paise === undefined || paise <= 0n) {
      ctx.addIssue({ code: 'custom', message: 'invalid_amount' });
      return z.NEVER;
    }
    return paise;
  });
