import { DLT_VARIABLE_MAX, OTP_LENGTH, OTP_TTL_SECONDS, SMS_MESSAGE_MAX, SMS_MESSAGE_VARIABLES } from '@kamai/contract';
import type { Config } from '../../platform/config';
import {
  codeSmsText,
  type Delivery,
  type DeliveryLog,
  failoverSender,
  type OtpSender,
  type ProviderClient,
  ProviderError,
  sandboxSender,
  smsCodeHost,
} from './otp.senders';
import { twilioStatusCallbackUrl } from './sms.reports';

/** Reads a provider's answer as JSON; a body that is not JSON is kept as text for the error. */
async function readAnswer(res: Response): Promise<{ json: Record<string, unknown> | undefined; text: string }> {
  const text = await res.text();
  try {
    const json = JSON.parse(text) as unknown;
    return { json: json && typeof json === 'object' ? (json as Record<string, unknown>) : undefined, text };
  } catch {
    return { json: undefined, text };
  }
}

/** The template id for a locale: `MSG91_OTP_TEMPLATE_ID_<LOCALE>`, else the default. */
export function msg91TemplateFor(config: Config, locale: Delivery['locale']): string {
  const key = `MSG91_OTP_TEMPLATE_ID_${locale.toUpperCase()}` as keyof Config;
  return (config[key] as string | undefined) ?? (config.MSG91_OTP_TEMPLATE_ID as string);
}

/**
 * MSG91 (India, DLT). Codes go through their SendOTP API (`POST /api/v5/otp` with the `authkey` header,
 * the DLT template id, the mobile with 91 and our own code as `otp`, so our server keeps checking codes);
 * operator messages through their Flow API (`POST /api/v5/flow`) with MSG91_MESSAGE_TEMPLATE_ID. Both
 * answer `{"type":"success", ...}` or `{"type":"error","message":...}` (docs/decisions/sms-delivery.md).
 */
export function msg91Client(config: Config, fetcher: typeof fetch = fetch): ProviderClient {
  const base = config.MSG91_BASE_URL;
  const authkey = config.MSG91_AUTH_KEY as string;
  const headers = { authkey, 'content-type': 'application/json', accept: 'application/json' };
  return {
    name: 'msg91',
    async send(delivery, signal) {
      if (delivery.channel !== 'sms') throw new ProviderError('unavailable', 'msg91 sends SMS only');
      let res: Response;
      if (delivery.kind === 'code') {
        const query = new URLSearchParams({
          template_id: msg91TemplateFor(config, delivery.locale),
          mobile: delivery.target,
          otp: delivery.code,
          otp_length: String(OTP_LENGTH),
          otp_expiry: String(Math.round(OTP_TTL_SECONDS / 60)),
        });
        // Indic scripts and Chinese need a Unicode SMS (their `unicode` parameter).
        if (delivery.locale !== 'en_US') query.set('unicode', '1');
        res = await fetcher(`${base}/api/v5/otp?${query}`, { method: 'POST', headers, body: '{}', signal });
      } else {
        if (!config.MSG91_MESSAGE_TEMPLATE_ID) {
          throw new ProviderError('unavailable', 'MSG91_MESSAGE_TEMPLATE_ID is not set: msg91 cannot send free text');
        }
        // The Flow API takes the DLT template as `template_id` (https://docs.msg91.com/sms/send-sms; the
        // older https://api.msg91.com/apidoc/textsms/send-sms-flow.php named it flow_id) and `unicode`:
        // "1 if sending SMS in languages other than English" (that page), so any non-ASCII text is sent so.
        // The text goes into the template's variables `var1` … `var5` (the Flow API names each variable
        // as the template does), each within the DLT cap (docs/decisions/msg91-dlt-limits.md).
        const body = {
          template_id: config.MSG91_MESSAGE_TEMPLATE_ID,
          short_url: '0',
          unicode: NON_ASCII.test(delivery.text) ? 1 : 0,
          recipients: [{ mobiles: delivery.target, ...dltVariables(delivery.text) }],
        };
        res = await fetcher(`${base}/api/v5/flow`, { method: 'POST', headers, body: JSON.stringify(body), signal });
      }
      const { json, text } = await readAnswer(res);
      if (res.ok && json?.type === 'success') {
        const id = json.request_id ?? json.message;
        return { messageId: typeof id === 'string' && id !== '' ? id : null };
      }
      const message = typeof json?.message === 'string' ? json.message : text.slice(0, 200);
      const code = json?.code === undefined ? '' : ` ${String(json.code)}`;
      throw new ProviderError(msg91Failure(res.status, message), `msg91 ${res.status}${code}: ${message}`);
    },
  };
}

/**
 * A text as the values of a DLT template's variables `var1` … `var<SMS_MESSAGE_VARIABLES>`: cut every
 * DLT_VARIABLE_MAX characters (Unicode code points, as the DLT platforms count them, so a Devanagari
 * or Chinese letter is never split in half); unused variables are empty. The template places them side
 * by side (`{#var#}{#var#}…`), so the SMS reads as the text. A longer text is refused before this (the
 * service's `sms_message_too_long`); here it throws rather than send a cut message.
 */
export function dltVariables(text: string): Record<string, string> {
  const chars = [...text];
  if (chars.length > SMS_MESSAGE_MAX) throw new ProviderError('unavailable', `message longer than ${SMS_MESSAGE_MAX}`);
  const vars: Record<string, string> = {};
  for (let i = 0; i < SMS_MESSAGE_VARIABLES; i++) {
    vars[`var${i + 1}`] = chars.slice(i * DLT_VARIABLE_MAX, (i + 1) * DLT_VARIABLE_MAX).join('');
  }
  return vars;
}

/** Any character outside ASCII: Devanagari, Gujarati, Gurmukhi, Chinese, and Latin with accents. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const NON_ASCII = /[^\x00-\x7F]/;

/** A refusal about the number itself (`Mobile no. not valid`, `invalid mobile number`) vs the account or service. */
function msg91Failure(status: number, message: string) {
  if (status === 401 || status === 403 || status === 418 || status === 429 || status >= 500) return 'unavailable';
  return /mobile|number/i.test(message) && !/auth|key|template|balance|ip/i.test(message)
    ? 'invalid_target'
    : 'unavailable';
}

/** Twilio error codes about the recipient: invalid `To`, not a mobile, opted out (STOP), unreachable. */
const TWILIO_TARGET_ERRORS = new Set([21211, 21612, 21614, 21610, 21217]);

/**
 * Twilio: the Messages resource (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`), HTTP basic auth
 * with the Account SID and Auth Token, a form body with `To` (E.164), `From` (or `MessagingServiceSid`)
 * and `Body`; 201 with the message `sid`, or `{code, message, more_info, status}` on an error.
 */
export function twilioClient(config: Config, fetcher: typeof fetch = fetch): ProviderClient {
  const sid = config.TWILIO_ACCOUNT_SID as string;
  const from = config.TWILIO_FROM as string;
  const url = `${config.TWILIO_BASE_URL}/2010-04-01/Accounts/${sid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${sid}:${config.TWILIO_AUTH_TOKEN}`).toString('base64')}`;
  const host = smsCodeHost(config.PUBLIC_URL);
  return {
    name: 'twilio',
    async send(delivery, signal) {
      if (delivery.channel !== 'sms') throw new ProviderError('unavailable', 'twilio sends SMS only');
      const form = new URLSearchParams({
        To: `+${delivery.target}`,
        ...(from.startsWith('MG') && from.length === 34 ? { MessagingServiceSid: from } : { From: from }),
        Body: delivery.kind === 'code' ? codeSmsText(delivery.locale, delivery.code, host) : delivery.text,
        // Twilio posts each status change here, signed (https://www.twilio.com/docs/messaging/guides/track-outbound-message-status).
        StatusCallback: twilioStatusCallbackUrl(config),
      });
      const res = await fetcher(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        signal,
      });
      const { json, text } = await readAnswer(res);
      if (res.status === 201 || res.status === 200) {
        return { messageId: typeof json?.sid === 'string' ? json.sid : null };
      }
      const code = typeof json?.code === 'number' ? json.code : undefined;
      const message = typeof json?.message === 'string' ? json.message : text.slice(0, 200);
      const failure =
        code !== undefined && res.status === 400 && TWILIO_TARGET_ERRORS.has(code) ? 'invalid_target' : 'unavailable';
      throw new ProviderError(failure, `twilio ${res.status}${code === undefined ? '' : ` ${code}`}: ${message}`);
    },
  };
}

/** SMS_PROVIDER: the sandbox, or the named providers in failover order (docs/decisions/sms-delivery.md). */
export function smsSenderFor(config: Config, deliveryLog: DeliveryLog, fetcher: typeof fetch = fetch): OtpSender {
  if (config.SMS_PROVIDER.length === 1 && config.SMS_PROVIDER[0] === 'sandbox') return sandboxSender(deliveryLog);
  const clients: ProviderClient[] = config.SMS_PROVIDER.map((name) => {
    if (name === 'msg91') return msg91Client(config, fetcher);
    if (name === 'twilio') return twilioClient(config, fetcher);
    throw new Error('sandbox cannot be part of a failover list');
  });
  return failoverSender(clients, config.SMS_TIMEOUT_MS, deliveryLog);
}
