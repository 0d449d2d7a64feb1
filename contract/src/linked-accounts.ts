import { z } from 'zod';
import type { MessageKey } from './catalogue';
import { AMOUNT_TEXT_MAX, PAIRING_CODE_LENGTH, PHONE_COUNTRY_CODE } from './constants';
import { controlChangeRef } from './control';
import { endpoints } from './endpoints';
import { parseRupees } from './money';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { normalizePhone, refuseBidi } from './validation';

/** The spec's status labels (section 3), in its order. */
export const LINKED_STATUSES = [
  'to_login',
  'abnormal',
  'online',
  'offline',
  'banned',
  'agent_expired',
  'segment_expired',
  'no_agent_available',
] as const;
export type LinkedStatus = (typeof LINKED_STATUSES)[number];

/** Catalogue key of each status's label ("To Login", "Online", ...). */
export const LINKED_STATUS_LABEL = {
  to_login: 'linked_status_to_login',
  abnormal: 'linked_status_abnormal',
  online: 'linked_status_online',
  offline: 'linked_status_offline',
  banned: 'linked_status_banned',
  agent_expired: 'linked_status_agent_expired',
  segment_expired: 'linked_status_segment_expired',
  no_agent_available: 'linked_status_no_agent_available',
} as const satisfies Record<LinkedStatus, MessageKey>;

/** What can happen to a linked account; each lands in its event log. */
export const LINKED_EVENT_KINDS = [
  'linked',
  'relinked',
  'rebind_requested',
  'status_changed',
  'logged_out',
  'settled',
] as const;
export type LinkedEventKind = (typeof LINKED_EVENT_KINDS)[number];
export const LINKED_EVENT_LABEL = {
  linked: 'linked_event_linked',
  relinked: 'linked_event_relinked',
  rebind_requested: 'linked_event_rebind_requested',
  status_changed: 'linked_event_status_changed',
  logged_out: 'linked_event_logged_out',
  settled: 'linked_event_settled',
} as const satisfies Record<LinkedEventKind, MessageKey>;
/** Who caused an event: the account's user, an operator (admin API), or the messaging provider. */
export const LINKED_ACTORS = ['user', 'operator', 'provider'] as const;

/** An 8-character pairing code (letters and digits) is valid this long. */
export const PAIRING_CODE_TTL_SECONDS = 180;
/** Pairing codes avoid look-alike characters, like invite codes. */
export const PAIRING_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A QR payload is valid this long; the page asks for a new one when it expires. */
export const QR_TTL_SECONDS = 60;
/** Codes one user may request per hour, over all phones. */
export const PAIRING_CODES_PER_USER_PER_HOUR = 30;
/** Settlement pays at most once per clock hour (UTC) per account. */
export const LINKED_SETTLEMENT_INTERVAL_SECONDS = 3600;
/** Upper bound of the operator's hourly rate, in rupees. */
export const LINKED_HOURLY_RATE_MAX_RUPEES = 10_000;

/**
 * A messaging number: 10 digits starting 6-9, with or without the 91 the client prefixes
 * (spec section 5) → "91XXXXXXXXXX".
 */
export const linkedPhoneField = z
  .string({ error: 'enter_phone_number' })
  .trim()
  .min(1, 'enter_phone_number')
  .max(20, 'invalid_phone_number_format')
  .superRefine((value, ctx) => {
    if (!normalizePhone(value)) ctx.addIssue({ code: 'custom', message: 'invalid_phone_number_format' });
  })
  .transform((value) => normalizePhone(value) ?? value);

/** Only India (+91) is used (spec section 5); "91", "+91" and 91 are accepted, absent means 91. */
export const countryCodeField = z
  .union([z.string().max(AMOUNT_TEXT_MAX, 'country_code_unsupported'), z.number()], {
    error: 'country_code_unsupported',
  })
  .transform((value) => String(value).trim().replace(/^\+/, ''))
  .refine((value) => value === PHONE_COUNTRY_CODE, 'country_code_unsupported')
  .optional()
  .default(PHONE_COUNTRY_CODE);

export const genPhoneCodeBody = z.object({ phone: linkedPhoneField, countryCode: countryCodeField });
export const linkedPhoneBody = z.object({ phone: linkedPhoneField });
export const linkedPhoneParams = z.object({ phone: linkedPhoneField });
export const linkedLogQuery = pageQuery.extend({ phone: linkedPhoneField });

export const qrData = z.object({
  /** Opaque id of this QR pairing: poll `login/qr-status?id=` with it. */
  id: z.string(),
  /** The text to render as a QR code. */
  payload: z.string(),
  expiresAt: z.string(),
  ttlSeconds: z.number().int(),
});
export const qrStatusQuery = z.object({
  id: z.string({ error: 'validation_failed' }).min(1, 'validation_failed').max(100, 'validation_failed'),
});
export const QR_STATES = ['pending', 'linked', 'expired'] as const;
export const qrStatusData = z.object({
  state: z.enum(QR_STATES),
  /** The number that scanned it, once `linked`. */
  phone: z.string().nullable(),
});

export const linkedAccountItem = z.object({
  id: z.number().int(),
  /** "91XXXXXXXXXX". */
  phone: z.string(),
  status: z.enum(LINKED_STATUSES),
  /** The status's label in the request's language. */
  statusLabel: z.string(),
  /** When the number was (last) linked. */
  linkedAt: z.string(),
  /** All online time so far, including the current online stretch. */
  onlineSeconds: z.number().int(),
  /** Online time not yet settled into the wallet. */
  unsettledSeconds: z.number().int(),
  /** Everything settlement has credited for this number, in rupees. */
  earnings: z.string(),
  lastSettledAt: z.string().nullable(),
  /** Null: may settle now (when there is unsettled time); else the start of the next interval. */
  settleAvailableAt: z.string().nullable(),
  /** A code or QR pairing for this number is waiting to be completed (re-bind in progress). */
  pairingPending: z.boolean(),
});
export type LinkedAccountItem = z.infer<typeof linkedAccountItem>;
export const linkedAccountPage = pageOf(linkedAccountItem).extend({
  /** The current hourly rate, in rupees. */
  hourlyRate: z.string(),
});

export const linkedEventItem = z.object({
  id: z.number().int(),
  kind: z.enum(LINKED_EVENT_KINDS),
  /** The kind's label in the request's language. */
  label: z.string(),
  fromStatus: z.enum(LINKED_STATUSES).nullable(),
  toStatus: z.enum(LINKED_STATUSES).nullable(),
  actor: z.enum(LINKED_ACTORS),
  /** `settled`: rupees credited and seconds paid for; `rebind_requested`, `linked`, `relinked`: how. */
  amount: z.string().nullable(),
  seconds: z.number().int().nullable(),
  method: z.enum(['code', 'qr']).nullable(),
  createdAt: z.string(),
});
export type LinkedEventItem = z.infer<typeof linkedEventItem>;

export const isBoundData = z.object({
  /** The number is linked to the caller. */
  bound: z.boolean(),
  status: z.enum(LINKED_STATUSES).nullable(),
  linkedAt: z.string().nullable(),
  pairingPending: z.boolean(),
});

export const settlementData = z.object({
  phone: z.string(),
  /** Rupees credited by this settlement (rebates to the uplines come on top, from the platform). */
  amount: z.string(),
  seconds: z.number().int(),
  /** The caller's wallet balance after it, in rupees. */
  balance: z.string(),
  settledAt: z.string(),
  /** Start of the next interval, when this number can be settled again. */
  settleAvailableAt: z.string(),
});

export const adminLinkedItem = linkedAccountItem.extend({ userId: z.number().int(), username: z.string() });
export const adminLinkedQuery = pageQuery.extend({
  status: z.enum(LINKED_STATUSES, { error: 'linked_status_invalid' }).optional(),
  userId: z.coerce.number().int().positive().optional(),
  phone: linkedPhoneField.optional(),
});
/** Completes a sandbox pairing: the newest pending code of `phone` (or exactly `code`), or the QR `qrId` scanned by `phone`. */
export const adminCompleteBody = z.object({
  phone: linkedPhoneField,
  code: z.string().trim().toUpperCase().length(PAIRING_CODE_LENGTH, 'validation_failed').optional(),
  qrId: z.string().trim().min(1).max(100).optional(),
});
export const adminStatusBody = z.object({
  phone: linkedPhoneField,
  status: z.enum(LINKED_STATUSES, { error: 'linked_status_invalid' }),
});
export const adminLinkedLogQuery = linkedLogQuery;

/** The hourly rate in rupees (0 pauses earning), at most two decimals. */
export const hourlyRateField = z
  .union([z.string().max(AMOUNT_TEXT_MAX, 'linked_rate_range'), z.number()], { error: 'linked_rate_range' })
  .transform((value, ctx) => {
    const paise = parseRupees(value);
    if (paise === undefined || paise > BigInt(LINKED_HOURLY_RATE_MAX_RUPEES) * 100n) {
      ctx.addIssue({ code: 'custom', message: 'linked_rate_range' });
      return z.NEVER;
    }
    return paise;
  });
export const linkedRateBody = z.object({ hourlyRate: hourlyRateField });
export const linkedRateData = z.object({ hourlyRate: z.string() });

export const linkedAccountRoutes = {
  linkedGenPhoneCode: {
    ...endpoints.linkedGenPhoneCode,
    policy: 'user',
    summary:
      'Asks the messaging provider for an 8-character pairing code for a number; data is the code. ' +
      "Refused when the number is linked to someone else; for the caller's own number it starts a re-bind",
    tag: 'linked-accounts',
    body: genPhoneCodeBody,
    data: z.string(),
    ok: 'pairing_code_ready',
  },
  linkedGetQrCode: {
    ...endpoints.linkedGetQrCode,
    policy: 'user',
    summary: 'Asks the messaging provider for a QR payload to scan; ask again when it expires',
    tag: 'linked-accounts',
    data: qrData,
    ok: 'qr_code_ready',
  },
  linkedQrStatus: {
    ...endpoints.linkedQrStatus,
    policy: 'user',
    summary: "Whether the caller's QR pairing was scanned (linked), is still pending, or expired",
    tag: 'linked-accounts',
    query: qrStatusQuery,
    data: qrStatusData,
  },
  linkedLogout: {
    ...endpoints.linkedLogout,
    policy: 'user',
    summary: "Logs the caller's number out of the provider; it stays in the list as To Login",
    tag: 'linked-accounts',
    body: linkedPhoneBody,
    data: linkedAccountItem,
    ok: 'linked_logged_out',
  },
  linkedPage: {
    ...endpoints.linkedPage,
    policy: 'user',
    summary: "The caller's linked numbers, newest first, with status, online time and earnings (keyset pages)",
    tag: 'linked-accounts',
    query: pageQuery,
    data: linkedAccountPage,
  },
  linkedLogList: {
    ...endpoints.linkedLogList,
    policy: 'user',
    summary: "Event log of one of the caller's numbers, newest first (keyset pages)",
    tag: 'linked-accounts',
    query: linkedLogQuery,
    data: pageOf(linkedEventItem),
  },
  linkedSettlement: {
    ...endpoints.linkedSettlement,
    policy: 'user',
    summary:
      'Credits online time since the last settlement × the hourly rate as linked-account income (with rebates); ' +
      'once per clock hour per number',
    tag: 'linked-accounts',
    params: linkedPhoneParams,
    data: settlementData,
    ok: 'linked_settled',
  },
  linkedIsBound: {
    ...endpoints.linkedIsBound,
    policy: 'user',
    summary: 'Whether a number is linked to the caller (404 when it is linked to someone else)',
    tag: 'linked-accounts',
    params: linkedPhoneParams,
    data: isBoundData,
  },
  adminWsList: {
    ...endpoints.adminWsList,
    policy: 'admin',
    summary: 'Every linked number, newest first, filterable by status, user and number (keyset pages)',
    tag: 'linked-accounts',
    query: adminLinkedQuery,
    data: pageOf(adminLinkedItem),
  },
  adminWsLog: {
    ...endpoints.adminWsLog,
    policy: 'admin',
    summary: 'Event log of any linked number, newest first (keyset pages)',
    tag: 'linked-accounts',
    query: adminLinkedLogQuery,
    data: pageOf(linkedEventItem),
  },
  adminWsComplete: {
    ...endpoints.adminWsComplete,
    policy: 'admin',
    summary:
      'Sandbox provider: completes a pending code or QR pairing, as if the phone had confirmed it; the number goes Online',
    tag: 'linked-accounts',
    body: refuseBidi(adminCompleteBody),
    data: adminLinkedItem,
    ok: 'binding_successful',
  },
  adminWsStatus: {
    ...endpoints.adminWsStatus,
    policy: 'admin',
    summary: "Sandbox provider: sets a linked number's status (any of the spec's list)",
    tag: 'linked-accounts',
    body: refuseBidi(adminStatusBody),
    data: adminLinkedItem,
  },
  adminWsRateGet: {
    ...endpoints.adminWsRateGet,
    policy: 'admin',
    roles: STAFF,
    summary: 'The hourly rate paid for online time of a linked number, in rupees',
    tag: 'linked-accounts',
    data: linkedRateData,
  },
  adminWsRateSet: {
    ...endpoints.adminWsRateSet,
    policy: 'admin',
    summary:
      'Sets the hourly rate (rupees, 0 to 10000, at most two decimals); applies to settlements from now on. A lower rate applies at once, a higher one is proposed for a second admin (`change`)',
    tag: 'linked-accounts',
    body: linkedRateBody,
    data: linkedRateData.extend({ change: controlChangeRef.nullable() }),
  },
} as const satisfies Record<string, RouteDef>;
