import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { routes } from '@kamai/contract';
import type { Config } from '../../platform/config';
import { AppError } from '../../platform/errors';

export interface ParsedReport {
  messageId: string;
  status: 'delivered' | 'undelivered';
  error?: string;
}

/** MSG91's report status codes (help page "delivery reports on my webhook URL"): 1 delivered, the rest below failed. */
const UNDELIVERED_CODES: Record<string, string> = {
  '2': 'FAILED',
  '9': 'NDNC',
  '16': 'REJECTED',
  '17': 'BLOCKED NUMBER',
  '25': 'REJECTED',
};

function statusOf(status: unknown, desc: unknown): ParsedReport['status'] | undefined {
  const value = String(status ?? '')
    .trim()
    .toLowerCase();
  if (value === '1' || value === 'delivered') return 'delivered';
  if (value in UNDELIVERED_CODES) return 'undelivered';
  if (['failed', 'rejected', 'undelivered', 'blocked', 'ndnc'].includes(value)) return 'undelivered';
  // Some versions carry the outcome only in `desc`.
  const text = String(desc ?? '').toUpperCase();
  if (text === 'DELIVERED') return 'delivered';
  if (['FAILED', 'REJECTED', 'NDNC', 'BLOCKED'].some((word) => text.includes(word))) return 'undelivered';
  return undefined;
}

function errorOf(item: Record<string, unknown>): string | undefined {
  const parts = [item.desc, item.description, item.failureReason, item.failedReason]
    .filter((v) => typeof v === 'string' && v !== '')
    .map(String);
  const code = String(item.status ?? '');
  if (parts.length === 0 && code in UNDELIVERED_CODES) parts.push(UNDELIVERED_CODES[code] as string);
  return parts.length > 0 ? `msg91 report ${code}: ${parts.join(' ')}`.slice(0, 500) : undefined;
}

/**
 * The reports in one MSG91 webhook call, whatever version posted it: v2's form field `data` (a JSON
 * string of `[{requestId, report: [{number, status, desc}]}]`), v3's flat JSON object, v4's JSON array of
 * `{event, data: [{meta, description, ts}]}`, or a JSON array of v2/v3 items. Reports that are not final (submitted, pending) are left out. A `data` that is not JSON is the
 * caller's error (400).
 */
export function parseMsg91Report(body: unknown): ParsedReport[] {
  let items: unknown[];
  if (
    body &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    typeof (body as { data?: unknown }).data === 'string'
  ) {
    try {
      const parsed = JSON.parse((body as { data: string }).data) as unknown;
      items = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      throw new AppError('validation_failed', { fields: { data: 'validation_failed' } });
    }
  } else {
    items = Array.isArray(body) ? body : [body];
  }
  const reports: ParsedReport[] = [];
  for (const raw of items) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    if (typeof item.event === 'string' && Array.isArray(item.data)) {
      reports.push(...v4Reports(item.event, item.data));
      continue;
    }
    if (typeof item.requestId !== 'string' || item.requestId === '') continue;
    const inner = Array.isArray(item.report) ? (item.report as Record<string, unknown>[]) : [item];
    for (const one of inner) {
      if (!one || typeof one !== 'object') continue;
      const status = statusOf(one.status, one.desc ?? one.description);
      if (!status) continue;
      reports.push({ messageId: item.requestId, status, ...(status === 'undelivered' ? { error: errorOf(one) } : {}) });
    }
  }
  return reports;
}

/**
 * A v4 item (`{event, data: [{meta, INMSID, description, ts}]}`, the CleverTap format): no `requestId`;
 * the message is named by `meta`, which MSG91 fills with the request id when it has one and with "0"
 * otherwise (their sample). A "0" or empty `meta` names no message and is left out (acknowledged,
 * nothing updated); `event` is the outcome (`delivered`, `failed`, …), `description` the reason.
 */
function v4Reports(event: string, data: unknown[]): ParsedReport[] {
  const reports: ParsedReport[] = [];
  for (const one of data) {
    if (!one || typeof one !== 'object') continue;
    const entry = one as Record<string, unknown>;
    const meta = String(entry.meta ?? '').trim();
    if (meta === '' || meta === '0') continue;
    const status = statusOf(event, entry.description);
    if (!status) continue;
    const reason = typeof entry.description === 'string' && entry.description !== '' ? entry.description : event;
    reports.push({
      messageId: meta,
      status,
      ...(status === 'undelivered' ? { error: `msg91 report ${event}: ${reason}`.slice(0, 500) } : {}),
    });
  }
  return reports;
}

function sameSecret(given: string, expected: string) {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * MSG91 signs nothing: their webhook is a plain POST to the URL registered in their panel. So the URL
 * carries a secret (`?token=MSG91_REPORT_TOKEN`), compared in constant time, and MSG91_REPORT_IPS, when
 * set, limits the sources. Without a token configured the route is closed (404); a missing or wrong
 * token answers 401, an address outside the list 403.
 */
export function checkMsg91Report(config: Config, input: { token: string | undefined; ip: string }) {
  const expected = config.MSG91_REPORT_TOKEN;
  if (!expected) throw new AppError('route_not_found');
  if (!input.token || !sameSecret(input.token, expected)) throw new AppError('unauthorized');
  const allowed = config.MSG91_REPORT_IPS;
  if (allowed && !allowed.includes(input.ip.replace(/^::ffff:/, ''))) throw new AppError('forbidden');
}

/**
 * Where Twilio posts a message's status (`StatusCallback`, sent with each message): under PUBLIC_URL,
 * else the address the server listens on (a local Twilio fake reaches it there).
 */
export function twilioStatusCallbackUrl(config: Config) {
  const path = routes.smsReportTwilio.path;
  return config.PUBLIC_URL ? new URL(path, config.PUBLIC_URL).toString() : `http://127.0.0.1:${config.PORT}${path}`;
}

/**
 * `X-Twilio-Signature` (https://www.twilio.com/docs/usage/security): the full URL Twilio requested,
 * then each POST parameter's name and value appended, sorted by name, no separators; HMAC-SHA1 under
 * the Auth Token; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>) {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
) {
  if (!signature) return false;
  return sameSecret(signature, twilioSignature(authToken, url, params));
}

/**
 * A status callback as a delivery report (https://www.twilio.com/docs/messaging/guides/track-outbound-message-status):
 * `MessageStatus` delivered, or undelivered/failed with `ErrorCode`; the other statuses are not final.
 */
export function parseTwilioReport(params: Record<string, string>): ParsedReport | undefined {
  const messageId = params.MessageSid ?? params.SmsSid;
  const status = params.MessageStatus ?? params.SmsStatus;
  if (!messageId || !status) return undefined;
  if (status === 'delivered') return { messageId, status: 'delivered' };
  if (status === 'undelivered' || status === 'failed') {
    return {
      messageId,
      status: 'undelivered',
      error: `twilio ${status}${params.ErrorCode ? ` ${params.ErrorCode}` : ''}`,
    };
  }
  return undefined;
}
