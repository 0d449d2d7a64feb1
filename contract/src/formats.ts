// Formats of user input as plain regular expressions and functions, free of zod: the browser's
// pages import these without the schemas (validation.ts builds the schemas on them).
import type { MessageKey } from './catalogue';
import { OTP_LENGTH, PHONE_COUNTRY_CODE } from './constants';

/**
 * A sign-up e-mail: an RFC 5321 `Mailbox` (section 4.1.2) in its plain form only: a `Dot-string` local
 * part (atoms of `atext`, RFC 5322 section 3.2.3, joined by single dots) of at most 64 characters, an
 * at sign, and a `Domain` of dotted labels (letters, digits, inner hyphens, 1-63 each) whose last is not
 * all digits. No display name (`Sam <sam@x.in>`), comment, quoted local part, comma, space, angle
 * bracket or address literal (`[1.2.3.4]`): what the mail sender receives is exactly one mailbox. In
 * visible ASCII only, so a Cyrillic `а` cannot make a second account; international domains are typed
 * in their ASCII (punycode) form.
 */
export const EMAIL_RE =
  /^(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?=.{4,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** Characters that make a typed address more than one plain mailbox: a name, a list, a quote, a comment. */
const NOT_A_PLAIN_MAILBOX = /[\s<>,;:"()[\]\\]/;
/** Domains whose mailboxes ignore dots in the local part and are one mailbox under both names (Gmail Help, "Dots don't matter in Gmail addresses"). */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The support e-mail an operator publishes on Help (empty allowed): a mailbox a phone's mail app opens,
 * so stricter than a sign-up name: dot-separated atoms, host labels of 1-63 letters, digits and inner
 * hyphens, a letter top-level domain. It is also JSON Schema's `email` format (ajv-formats), so an
 * address the form takes is one the page's answer can carry (a fuzz case once found one that was not).
 */
export const CONTACT_EMAIL_RE =
  /^$|^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
/** Indian mobile number without country code: 10 digits starting 6-9. */
export const INDIAN_MOBILE_RE = /^[6-9]\d{9}$/;
export const OTP_RE = new RegExp(`^\\d{${OTP_LENGTH}}$`);
/** IFSC after upper-casing: bank code, a zero, then the branch (letters allowed, e.g. `HDFC0CKUB01`). */
export const IFSC_RE = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** Bank account number: 9 to 18 digits (spaces typed between groups are removed first). */
export const ACCOUNT_NO_RE = /^\d{9,18}$/;
/**
 * Recipient name as RazorpayX takes it. The name is sent as the contact's `name` (Create Contact,
 * https://razorpay.com/docs/api/x/contacts/create and .../account-validation/create-contact: "A minimum
 * of 3 characters and a maximum of 50 characters ... Name cannot end with a special character, except
 * . Supported characters: a-z, A-Z, 0-9, space, ' , - , _ , / , ( , ) and ."; the composite payout
 * sends the same contact) and as `bank_account.name` (Create Fund Account, .../fund-accounts/create/bank-account:
 * the same characters and end rule, 3-120), so the stricter 50 holds. Razorpay's validator also takes
 * only a letter or digit first (a name starting with "(" or "-" is refused).
 */
export const RECIPIENT_NAME_MIN = 3;
export const RECIPIENT_NAME_MAX = 50;
/** The characters RazorpayX supports in a name (Create Contact, "Supported characters"). */
export const RECIPIENT_NAME_CHARS_RE = /^[A-Za-z0-9 '\-_/().]*$/;
/** The whole rule: letter or digit first, then supported characters, last a letter, digit or `.`. */
export const RECIPIENT_NAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9 '\-_/().]*[A-Za-z0-9.])?$/;
/**
 * UPI ID (VPA): `username@handle`, as RazorpayX splits it (fund account entity `vpa.username`,
 * `vpa.handle`, `vpa.address`, https://razorpay.com/docs/api/x/fund-accounts/create/vpa): letters,
 * digits, `.`, `-`, `_` before one `@`; letters, digits and `.` after it.
 */
export const UPI_ID_RE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.]+$/;
export const UPI_ID_MIN = 3;
export const UPI_ID_MAX = 100;

/** A phone as typed ("98765 43210", "+91 98765-43210", "919876543210") → "919876543210", else undefined. */
export function normalizePhone(input: string): string | undefined {
  let digits = input.replace(/[\s-]/g, '').replace(/^\+/, '');
  // The trunk prefix 0 that Indians dial before a mobile number from a landline: 098765 43210.
  if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1);
  if (INDIAN_MOBILE_RE.test(digits)) return `${PHONE_COUNTRY_CODE}${digits}`;
  if (digits.length === 12 && digits.startsWith(PHONE_COUNTRY_CODE) && INDIAN_MOBILE_RE.test(digits.slice(2))) {
    return digits;
  }
  return undefined;
}

/**
 * Unicode NFKC, then trimmed: full-width digits and letters (`９`, `ａ`) become their ASCII forms, so
 * one person cannot hold two accounts that look the same (docs/decisions/canonical-identity.md).
 */
export function foldUsername(input: string): string {
  return input.normalize('NFKC').trim();
}

/** The canonical username: e-mail lower-cased, phone as 91XXXXXXXXXX; undefined when neither. */
export function normalizeUsername(input: string): string | undefined {
  const value = foldUsername(input);
  if (value.includes('@')) return EMAIL_RE.test(value) ? value.toLowerCase() : undefined;
  return normalizePhone(value);
}

/**
 * The person behind a normalised username (docs/decisions/canonical-identity.md): an e-mail without
 * its `+tag` (RFC 5233 subaddress), and for Gmail without the dots of its local part and under one
 * domain, so `x.sam+1@googlemail.com` and `xsam@gmail.com` are one identity; a phone is itself. What the
 * identity ledger, "one friend once", first-time rewards and per-target limits count; the user still
 * logs in with the username as typed.
 */
export function canonicalIdentity(username: string): string {
  const at = username.lastIndexOf('@');
  if (at < 0) return username;
  let local = username.slice(0, at).toLowerCase();
  let domain = username.slice(at + 1).toLowerCase();
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** Why a username is not valid, as a catalogue key, or undefined when it is. */
export function usernameProblem(input: string): MessageKey | undefined {
  const value = foldUsername(input);
  if (!value) return 'enter_phone_or_email';
  if (normalizeUsername(value)) return undefined;
  if (!value.includes('@')) return 'phone_format_wrong';
  return NOT_A_PLAIN_MAILBOX.test(value) || value.indexOf('@') !== value.lastIndexOf('@')
    ? 'email_plain_address_only'
    : 'enter_valid_email';
}

/**
 * Unicode bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069): they
 * reorder how text is shown, so `₹\u202E00.0001` reads "₹1000.00". Refused in every stored text.
 */
export const BIDI_CONTROL_RE = /[\u202A-\u202E\u2066-\u2069]/;

export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROL_RE.test(text);
}

/** Where the web app and the console keep their device id (header `DEVICE_ID_HEADER`). */
export const DEVICE_ID_STORAGE_KEY = 'kamai.device';

const DEVICE_ID = /^[A-Za-z0-9-]{16,64}$/;

/** A UUID or 16-64 letters, digits and dashes: what the apps make. */
export function isDeviceId(text: unknown): text is string {
  return typeof text === 'string' && DEVICE_ID.test(text);
}

/** Username field of register, reset password and the code target: validated and normalised. */
