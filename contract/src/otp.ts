import { z } from 'zod';
import { OTP_CHANNELS } from './constants';
import { endpoints } from './endpoints';
import { EMAIL_RE, normalizePhone } from './formats';
import { LOCALES, type Locale } from './locales';
import { pageOf } from './pagination';
import type { RouteDef } from './route-def';
import { refuseBidi } from './validation';

/** A code the sandbox sender "delivered", for operators (admin console, OTP outbox). */
export const outboxItem = z.object({
  id: z.number().int(),
  channel: z.enum(OTP_CHANNELS),
  target: z.string(),
  code: z.string(),
  createdAt: z.string(),
});
export const outboxPage = pageOf(outboxItem);
export type OutboxItem = z.infer<typeof outboxItem>;

export const DELIVERY_PROVIDERS = ['sandbox', 'smtp', 'msg91', 'twilio'] as const;
export type DeliveryProvider = (typeof DELIVERY_PROVIDERS)[number];
/**
 * `sent`: the provider accepted it; `failed`: the provider refused it or did not answer in time (the
 * next provider was tried); `delivered`/`undelivered`: the provider's delivery report.
 */
export const DELIVERY_STATUSES = ['sent', 'failed', 'delivered', 'undelivered'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery attempt through one provider; never the code or the message text. */
export const deliveryItem = z.object({
  id: z.number().int(),
  channel: z.enum(OTP_CHANNELS),
  kind: z.enum(['code', 'message']),
  target: z.string(),
  provider: z.enum(DELIVERY_PROVIDERS),
  status: z.enum(DELIVERY_STATUSES),
  providerMessageId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const deliveryPage = pageOf(deliveryItem);
export type DeliveryItem = z.infer<typeof deliveryItem>;

export const deliveryQuery = z.object({
  limit: z.coerce.number({ error: 'validation_failed' }).int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
  /** An exact target as stored: an e-mail address or 91XXXXXXXXXX. */
  target: z.string().trim().min(1).max(254).optional(),
});

/** The SMS text of a code where the provider takes free text (Twilio); DLT templates carry their own. */
export const OTP_SMS_TEXT: Record<Locale, string> = {
  en_US: 'Your Kamai verification code is {{code}}. It is valid for {{minutes}} minutes. Do not share it with anyone.',
  gu_IN: 'તમારો Kamai ચકાસણી કોડ {{code}} છે. તે {{minutes}} મિનિટ માટે માન્ય છે. તે કોઈની સાથે શેર કરશો નહીં.',
  hi_IN: 'आपका Kamai सत्यापन कोड {{code}} है। यह {{minutes}} मिनट तक मान्य है। इसे किसी के साथ साझा न करें।',
  mr_IN: 'तुमचा Kamai पडताळणी कोड {{code}} आहे. तो {{minutes}} मिनिटांसाठी वैध आहे. तो कोणालाही सांगू नका.',
  pa_IN: 'ਤੁਹਾਡਾ Kamai ਪੁਸ਼ਟੀਕਰਨ ਕੋਡ {{code}} ਹੈ। ਇਹ {{minutes}} ਮਿੰਟ ਲਈ ਵੈਧ ਹੈ। ਇਸਨੂੰ ਕਿਸੇ ਨਾਲ ਸਾਂਝਾ ਨਾ ਕਰੋ।',
  zh_CN: '您的 Kamai 验证码是 {{code}}，{{minutes}} 分钟内有效。请勿告诉任何人。',
};

/**
 * The last line of a code SMS that binds the code to the app's host (the origin-bound one-time code
 * format, https://wicg.github.io/sms-one-time-codes/): Android's WebOTP and iOS's autofill offer the
 * code to a page of that host only. It follows the text after a blank line.
 */
export function originBoundLine(host: string, code: string): string {
  return `@${host} #${code}`;
}

/** The host and code of a text's origin-bound last line, or null when its last line is not one. */
export function parseOriginBound(text: string): { host: string; code: string } | null {
  const match = /(?:^|\n)@([a-z0-9.-]+) #([A-Za-z0-9]+)$/.exec(text);
  return match?.[1] && match[2] ? { host: match[1], code: match[2] } : null;
}

/** The subject of a code e-mail. */
export const OTP_EMAIL_SUBJECT: Record<Locale, string> = {
  en_US: 'Kamai verification code {{code}}',
  gu_IN: 'Kamai ચકાસણી કોડ {{code}}',
  hi_IN: 'Kamai सत्यापन कोड {{code}}',
  mr_IN: 'Kamai पडताळणी कोड {{code}}',
  pa_IN: 'Kamai ਪੁਸ਼ਟੀਕਰਨ ਕੋਡ {{code}}',
  zh_CN: 'Kamai 验证码 {{code}}',
};

/** Fills `{{name}}` placeholders. */
export function fillText(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Longest operator message: about three SMS parts in Unicode (70 characters a part, fewer when joined). */
export const OTP_MESSAGE_MAX = 300;

const message = z.string().trim().min(1, 'validation_failed').max(OTP_MESSAGE_MAX, 'validation_failed');
const locale = z.enum(LOCALES, { error: 'validation_failed' });

/**
 * `POST /obj/otp/sms` (spec §7, docs/design.md "Scope"): an operator sends a fresh one-time code (no `message`)
 * or a message to an Indian mobile number through the configured SMS sender.
 */
export const objOtpSmsBody = z.object({
  target: z
    .string({ error: 'enter_phone_number' })
    .trim()
    .min(1, 'enter_phone_number')
    .max(32, 'invalid_phone_number_format')
    .superRefine((value, ctx) => {
      if (!normalizePhone(value)) ctx.addIssue({ code: 'custom', message: 'invalid_phone_number_format' });
    })
    .transform((value) => normalizePhone(value) ?? value),
  message: message.optional(),
  /** The language of the text; the caller's Accept-Language when left out. */
  locale: locale.optional(),
});

/** `POST /obj/otp/email`: the same through the e-mail sender. */
export const objOtpEmailBody = z.object({
  target: z
    .string({ error: 'enter_valid_email' })
    .trim()
    .min(1, 'enter_valid_email')
    .max(254, 'enter_valid_email')
    .regex(EMAIL_RE, 'enter_valid_email')
    .transform((value) => value.toLowerCase()),
  message: message.optional(),
  locale: locale.optional(),
});

export const objOtpData = z.object({
  kind: z.enum(['code', 'message']),
  target: z.string(),
  /** The accepting provider's attempt (the last row of the target's deliveries). */
  provider: z.enum(DELIVERY_PROVIDERS),
});

/**
 * MSG91's delivery report. Their "Webhook (Old)" v2 posts a form with `data`, a JSON string of
 * `[{requestId, report: [{number, status, desc}]}]`; v3 and "Webhook (New)" post JSON with `requestId`,
 * `status` and `desc`/`failureReason` at the top. Both are taken; fields not named here are dropped.
 */
const reportText = z.string().max(500).optional();
export const msg91ReportQuery = z.object({ token: z.string().max(200).optional() });
const msg91ReportObject = z.object({
  data: z.string().max(100_000).optional(),
  requestId: z.string().max(100).optional(),
  status: z.union([z.string().max(40), z.number()]).optional(),
  desc: reportText,
  description: reportText,
  failureReason: reportText,
  failedReason: reportText,
  number: z.string().max(20).optional(),
  telNum: z.string().max(20).optional(),
});
/**
 * Their v4 webhook (https://msg91.com/help/how-can-i-get-the-delivery-reports-on-my-webhook-url) posts a
 * JSON array: `[{"data":[{"meta":"0","INMSID":"0","description":"DELIVERED","ts":1726729500}],"event":"delivered"}]`.
 */
const msg91V4Item = z.object({
  event: z.string().max(40).optional(),
  data: z
    .array(
      z.object({
        meta: z.union([z.string().max(100), z.number()]).optional(),
        INMSID: z.union([z.string().max(100), z.number()]).optional(),
        description: reportText,
        ts: z.number().optional(),
      }),
    )
    .max(1000)
    .optional(),
});
export const msg91ReportBody = z.union([msg91ReportObject, z.array(msg91V4Item).max(1000)]);
export const msg91ReportData = z.object({ updated: z.number().int() });

/**
 * Twilio's status callback: a form POST with `MessageSid`, `MessageStatus`, `ErrorCode` and more, every
 * parameter covered by `X-Twilio-Signature` (https://www.twilio.com/docs/usage/security), so all are kept.
 */
export const twilioReportBody = z.record(z.string().max(100), z.string().max(2000));

export const otpRoutes = {
  objOtpSms: {
    ...endpoints.objOtpSms,
    policy: 'admin',
    summary: 'Send a one-time code (no message) or a message to an Indian mobile number through the SMS sender',
    tag: 'otp',
    body: refuseBidi(objOtpSmsBody),
    data: objOtpData,
  },
  objOtpEmail: {
    ...endpoints.objOtpEmail,
    policy: 'admin',
    summary: 'Send a one-time code (no message) or a message to an e-mail address through the e-mail sender',
    tag: 'otp',
    body: refuseBidi(objOtpEmailBody),
    data: objOtpData,
  },
  adminOtpDeliveries: {
    ...endpoints.adminOtpDeliveries,
    policy: 'admin',
    summary: 'Delivery attempts of codes and messages (provider, status, error), newest first; never the code',
    tag: 'otp',
    query: deliveryQuery,
    data: deliveryPage,
  },
  smsReportMsg91: {
    ...endpoints.smsReportMsg91,
    policy: 'public',
    summary: "MSG91's delivery report (webhook); needs the report token in the URL",
    tag: 'otp',
    query: msg91ReportQuery,
    body: msg91ReportBody,
    data: msg91ReportData,
  },
  smsReportTwilio: {
    ...endpoints.smsReportTwilio,
    policy: 'public',
    summary: "Twilio's message status callback; refused unless X-Twilio-Signature signs it",
    tag: 'otp',
    body: twilioReportBody,
    data: msg91ReportData,
  },
} as const satisfies Record<string, RouteDef>;
