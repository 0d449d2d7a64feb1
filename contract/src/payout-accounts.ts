import { z } from 'zod';
import { accountVerification } from './account-validation';
import type { MessageKey } from './catalogue';
import { endpoints } from './endpoints';
import type { RouteDef } from './route-def';
import {
  ACCOUNT_NO_RE,
  IFSC_RE,
  RECIPIENT_NAME_CHARS_RE,
  RECIPIENT_NAME_MAX,
  RECIPIENT_NAME_MIN,
  RECIPIENT_NAME_RE,
  refuseBidi,
  UPI_ID_MAX,
  UPI_ID_MIN,
  UPI_ID_RE,
} from './validation';

/** Spec section 3: `upi` (the default) or `bank`. */
export const PAYOUT_ACCOUNT_TYPES = ['upi', 'bank'] as const;
export type PayoutAccountType = (typeof PAYOUT_ACCOUNT_TYPES)[number];
/** How many payout accounts one user may keep. */
export const PAYOUT_ACCOUNTS_MAX = 10;

/** Digits of a bank account number as typed ("1234 5678 9012" → "123456789012"). */
export const normalizeAccountNo = (value: string) => value.replace(/[\s-]/g, '');

/**
 * Why a recipient name is not valid, as a catalogue key, or undefined when it is: RazorpayX's rules
 * (formats.ts `RECIPIENT_NAME_RE`), each with its own message, checked on the stored form (trimmed,
 * inner spaces collapsed).
 */
export function recipientNameProblem(name: string): MessageKey | undefined {
  const value = name.trim().replace(/\s+/g, ' ');
  if (!value) return 'enter_recipient_name';
  if (value.length < RECIPIENT_NAME_MIN || value.length > RECIPIENT_NAME_MAX) return 'recipient_name_length';
  if (!RECIPIENT_NAME_CHARS_RE.test(value)) return 'invalid_recipient_name';
  if (!/^[A-Za-z0-9]/.test(value)) return 'recipient_name_first';
  return RECIPIENT_NAME_RE.test(value) ? undefined : 'recipient_name_last';
}

/** Why an account number (bank) or UPI ID (upi) is not valid, or undefined when it is. */
export function accountNoProblem(type: PayoutAccountType, accountNo: string): MessageKey | undefined {
  const value = accountNo.trim();
  if (type === 'upi') {
    if (!value) return 'enter_upi_id';
    return UPI_ID_RE.test(value) && value.length >= UPI_ID_MIN && value.length <= UPI_ID_MAX
      ? undefined
      : 'invalid_upi_id';
  }
  if (!value) return 'enter_account_number';
  return ACCOUNT_NO_RE.test(normalizeAccountNo(value)) ? undefined : 'invalid_account_number';
}

/** Why an IFSC is not valid (bank accounts only), or undefined when it is. */
export function ifscProblem(ifsc: string): MessageKey | undefined {
  const value = ifsc.trim().toUpperCase();
  if (!value) return 'enter_ifsc';
  return IFSC_RE.test(value) ? undefined : 'invalid_ifsc';
}

/** `isDefault` as the spec sends it (1 = default), also accepting "1"/"0" and booleans from forms. */
const isDefaultField = z
  .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()], { error: 'validation_failed' })
  .transform((value): 0 | 1 => (value === 1 || value === '1' || value === true ? 1 : 0));

const fields = {
  accountType: z.enum(PAYOUT_ACCOUNT_TYPES, { error: 'validation_failed' }).default('upi'),
  /** Spec section 9: a new account is the default unless `isDefault: 0`. */
  isDefault: isDefaultField.default(1),
  /** Bank accounts only; ignored (stored empty) for UPI. */
  ifsc: z.string({ error: 'invalid_ifsc' }).max(20, 'invalid_ifsc').default(''),
  /** Bank: the account number. UPI: the UPI ID. */
  accountNo: z.string({ error: 'invalid_account_number' }).max(200, 'invalid_account_number').default(''),
  /** Bank: the recipient's name. UPI: the holder's name. */
  accountName: z.string({ error: 'invalid_recipient_name' }).max(200, 'invalid_recipient_name').default(''),
};

interface Raw {
  accountType: PayoutAccountType;
  ifsc: string;
  accountNo: string;
  accountName: string;
}

/**
 * Adds every field's problem at its path (string fields default to empty, so the object always gets
 * here and the form learns of every problem at once); `accountNo` may stay empty when `keepAccountNo`.
 */
function checkAccount(value: Raw, ctx: z.RefinementCtx, keepAccountNo: boolean) {
  const name = recipientNameProblem(value.accountName);
  if (name) ctx.addIssue({ code: 'custom', message: name, path: ['accountName'] });
  if (!(keepAccountNo && !value.accountNo.trim())) {
    const number = accountNoProblem(value.accountType, value.accountNo);
    if (number) ctx.addIssue({ code: 'custom', message: number, path: ['accountNo'] });
  }
  if (value.accountType === 'bank') {
    const ifsc = ifscProblem(value.ifsc);
    if (ifsc) ctx.addIssue({ code: 'custom', message: ifsc, path: ['ifsc'] });
  }
}

/** The stored form: IFSC upper-cased (empty for UPI), bank digits only, UPI ID lower-cased, name trimmed. */
function normalize<T extends Raw>(value: T): T {
  const accountNo = value.accountNo.trim();
  return {
    ...value,
    ifsc: value.accountType === 'bank' ? value.ifsc.trim().toUpperCase() : '',
    accountNo: value.accountType === 'bank' ? normalizeAccountNo(accountNo) : accountNo.toLowerCase(),
    accountName: value.accountName.trim().replace(/\s+/g, ' '),
  };
}

/** `wdaccount/bind`: the payout method form (spec section 3); also the web form's resolver schema. */
export const payoutAccountBindBody = z
  .object(fields)
  .superRefine((value, ctx) => checkAccount(value, ctx, false))
  .transform(normalize);
export type PayoutAccountBindBody = z.input<typeof payoutAccountBindBody>;

const accountId = z.coerce
  .number({ error: 'payout_account_not_found' })
  .int('payout_account_not_found')
  .positive('payout_account_not_found');

/**
 * `wdaccount/edit`: the whole form again with the account's `id`. The client only knows the masked
 * number, so an empty `accountNo` keeps the stored one (only while `accountType` stays the same).
 * `isDefault` left out keeps the account's current standing.
 */
export const payoutAccountEditBody = z
  .object({ id: accountId, ...fields, isDefault: isDefaultField.optional() })
  .superRefine((value, ctx) => checkAccount(value, ctx, true))
  .transform(normalize);
export type PayoutAccountEditBody = z.input<typeof payoutAccountEditBody>;

export const payoutAccountIdBody = z.object({ id: accountId });

/** One saved payout account as the owner sees it. */
export const payoutAccountItem = z.object({
  id: z.number().int(),
  accountType: z.enum(PAYOUT_ACCOUNT_TYPES),
  isDefault: z.union([z.literal(0), z.literal(1)]),
  /** Empty for UPI. */
  ifsc: z.string(),
  /** Bank: "••••3456" (last 4 digits). UPI: "as•••@okaxis" (first 2 characters and the handle). */
  accountNoMasked: z.string(),
  accountName: z.string(),
  /** The bank's check of the account; null for an account saved before checks began. */
  verification: accountVerification.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PayoutAccountItem = z.infer<typeof payoutAccountItem>;

export const payoutAccountRoutes = {
  wdaccountBind: {
    ...endpoints.wdaccountBind,
    policy: 'user',
    summary: 'Saves a bank or UPI payout account; isDefault 1 makes it the only default',
    tag: 'payout-accounts',
    body: refuseBidi(payoutAccountBindBody),
    data: z.object({ id: z.number().int() }),
    ok: 'payout_account_bound',
  },
  wdaccountEdit: {
    ...endpoints.wdaccountEdit,
    policy: 'user',
    summary: "Changes one of the caller's payout accounts (empty accountNo keeps the stored one)",
    tag: 'payout-accounts',
    body: refuseBidi(payoutAccountEditBody),
    data: payoutAccountItem,
    ok: 'payout_account_saved',
  },
  wdaccountDelete: {
    ...endpoints.wdaccountDelete,
    policy: 'user',
    summary: "Deletes one of the caller's payout accounts, unless a withdrawal under review names it",
    tag: 'payout-accounts',
    body: payoutAccountIdBody,
    data: z.null(),
    ok: 'payout_account_deleted',
  },
  wdaccountList: {
    ...endpoints.wdaccountList,
    policy: 'user',
    summary: "The caller's payout accounts (at most 10, one page), default first, numbers masked",
    tag: 'payout-accounts',
    data: z.object({ items: z.array(payoutAccountItem) }),
  },
} as const satisfies Record<string, RouteDef>;
