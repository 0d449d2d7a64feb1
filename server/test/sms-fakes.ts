// Local fakes of MSG91 and Twilio for the SMS senders' tests (docs/decisions/sms-delivery.md), following the providers'
// published APIs (pages cited in docs/decisions/sms-delivery.md). Each checks what the real one checks
// and answers its documented errors; `mode` makes it misbehave on purpose.

import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DLT_VARIABLE_MAX, parseOriginBound } from '@kamai/contract';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeServer<Mode extends string> {
  url: string;
  requests: FakeRequest[];
  /** How the next requests are answered: `ok` unless set. `hang` never answers. */
  mode: Mode | 'ok' | 'hang' | 'down';
  close(): Promise<void>;
}

async function startFake<Mode extends string>(
  handle: (req: FakeRequest, res: ServerResponse, mode: Mode | 'ok') => void,
): Promise<FakeServer<Mode>> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeServer<Mode> = {
    url: '',
    requests: [],
    mode: 'ok',
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    // Recorded as soon as it arrives, so a request the client abandons still counts.
    const request: FakeRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: '',
    };
    fake.requests.push(request);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      request.body = Buffer.concat(chunks).toString('utf8');
      if (fake.mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (fake.mode === 'down') {
        res.writeHead(503, { 'content-type': 'text/html' }).end('<html>503 Service Temporarily Unavailable</html>');
        return;
      }
      handle(request, res, fake.mode as Mode | 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export interface Msg91Sent {
  requestId: string;
  mobile: string;
  templateId: string;
  /** The code (SendOTP) or the message (Flow). */
  otp?: string;
  message?: string;
  /** The Flow call's template variables as sent (`var1` …). */
  vars?: Record<string, unknown>;
  /** A code's SMS as the phone shows it: the template's registered text with `##OTP##` filled in. */
  text?: string;
  unicode: boolean;
}

export type Msg91Mode = 'balance' | 'ip' | 'error200';
export type Msg91Fake = FakeServer<Msg91Mode> & {
  sent: Msg91Sent[];
  lastCodeFor(mobile: string): string;
  /**
   * The v4 delivery report MSG91 posts for a sent message (JSON, `application/json`), shaped as their
   * sample on https://msg91.com/help/how-can-i-get-the-delivery-reports-on-my-webhook-url:
   * `[{"data":[{"meta":"0","INMSID":"0","description":"DELIVERED","ts":1726729500}],"event":"delivered"}]`.
   * `meta` carries the request id (the page's sample shows "0", a message with none); `undefined` sends "0".
   */
  v4Report(requestId: string | undefined, event: 'delivered' | 'failed', description: string): string;
};

/**
 * MSG91: `POST /api/v5/otp?template_id&mobile&otp...` (SendOTP) and `POST /api/v5/flow` (Flow), both with
 * the `authkey` header. Answers `{"type":"success","request_id"}` / `{"type":"success","message":<id>}`,
 * or `{"type":"error","message"}`: wrong key 401, unknown template 400, a mobile that is not 91 + 10 digits
 * 400 "Mobile no. not valid", `ip` 418 (API security: IP not whitelisted), `balance` "Insufficient balance".
 */
export async function startMsg91Fake(opts: {
  authkey: string;
  templates: string[];
  /** A template's text as registered (`##OTP##` where the code goes), by template id. */
  texts?: Record<string, string>;
}): Promise<Msg91Fake> {
  const sent: Msg91Sent[] = [];
  const fake = await startFake<Msg91Mode>((req, res, mode) => {
    if (req.method !== 'POST' || !['/api/v5/otp', '/api/v5/flow'].includes(req.path)) {
      return json(res, 404, { type: 'error', message: 'Not Found' });
    }
    if (req.headers.authkey !== opts.authkey) {
      return json(res, 401, { type: 'error', message: 'Authentication failure', code: '401' });
    }
    if (mode === 'ip') return json(res, 418, { type: 'error', message: 'IP not whitelisted', code: '418' });
    if (mode === 'balance') return json(res, 200, { type: 'error', message: 'Insufficient balance' });
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      return json(res, 400, { type: 'error', message: 'Invalid content type' });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body || '{}');
    } catch {
      return json(res, 400, { type: 'error', message: 'Invalid JSON' });
    }
    const requestId = randomBytes(12).toString('hex');
    if (req.path === '/api/v5/otp') {
      const templateId = req.query.get('template_id') ?? '';
      const mobile = req.query.get('mobile') ?? '';
      const otp = req.query.get('otp') ?? '';
      if (!opts.templates.includes(templateId))
        return json(res, 400, { type: 'error', message: 'Invalid template_id' });
      if (!/^91[6-9]\d{9}$/.test(mobile) || mobile.startsWith('916000')) {
        // 916000… stands for a number the operator network refuses.
        return json(res, 400, { type: 'error', message: 'Mobile no. not valid' });
      }
      const length = Number(req.query.get('otp_length') ?? 4);
      if (!new RegExp(`^\\d{${length}}$`).test(otp)) return json(res, 400, { type: 'error', message: 'Invalid otp' });
      if (mode === 'error200') return json(res, 200, { type: 'error', message: 'Invalid template_id' });
      // Each `##OTP##` of the registered text is one DLT variable, within the DLT cap like any other.
      if (otp.length > DLT_VARIABLE_MAX) {
        return json(res, 400, { type: 'error', message: `Variable exceeds ${DLT_VARIABLE_MAX} characters` });
      }
      const text = opts.texts?.[templateId]?.replaceAll('##OTP##', otp);
      sent.push({ requestId, mobile, templateId, otp, text, unicode: req.query.get('unicode') === '1' });
      return json(res, 200, { type: 'success', request_id: requestId });
    }
    const recipients = body.recipients as ({ mobiles?: string } & Record<string, unknown>)[] | undefined;
    // The current Flow API names the DLT template `template_id` (https://docs.msg91.com/sms/send-sms);
    // the retired `flow_id` is refused, so a test can tell which one the adapter sends.
    if (body.flow_id !== undefined)
      return json(res, 400, { type: 'error', message: 'flow_id is not supported, use template_id' });
    const templateId = String(body.template_id ?? '');
    if (!opts.templates.includes(templateId)) return json(res, 400, { type: 'error', message: 'Invalid template_id' });
    // `unicode`: 1 for text in languages other than English (https://api.msg91.com/apidoc/textsms/send-sms-flow.php).
    const unicode = body.unicode === 1 || body.unicode === '1';
    const first = Array.isArray(recipients) ? recipients[0] : undefined;
    if (!first?.mobiles || !/^91[6-9]\d{9}$/.test(first.mobiles)) {
      return json(res, 400, { type: 'error', message: 'Mobile no. not valid' });
    }
    // DLT: the value of each template variable is at most 30 characters, English or Unicode
    // (https://docs.localmail.io/regulations/everything-to-know-about-dlt-india/frequenty-asked-questions,
    // https://support.kaleyra.com/en/support/solutions/articles/3000105308); the operator's scrubbing
    // rejects a longer one, and MSG91 answers with an error. Variables are every field but `mobiles`,
    // named as in the template (https://api.msg91.com/apidoc/textsms/send-sms-flow.php: "VAR1, VAR2").
    const vars = Object.entries(first).filter(([name]) => name !== 'mobiles');
    const long = vars.find(([, value]) => [...String(value)].length > DLT_VARIABLE_MAX);
    if (long) {
      return json(res, 400, { type: 'error', message: `Variable ${long[0]} exceeds ${DLT_VARIABLE_MAX} characters` });
    }
    const message = vars
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([, value]) => String(value))
      .join('');
    sent.push({ requestId, mobile: first.mobiles, templateId, message, unicode, vars: Object.fromEntries(vars) });
    return json(res, 200, { type: 'success', message: requestId });
  });
  return Object.assign(fake, {
    sent,
    v4Report(requestId: string | undefined, event: 'delivered' | 'failed', description: string) {
      const data = [{ meta: requestId ?? '0', INMSID: '0', description, ts: Math.floor(Date.now() / 1000) }];
      return JSON.stringify([{ data, event }]);
    },
    lastCodeFor(mobile: string) {
      const hit = sent.filter((s) => s.mobile === mobile && s.otp).at(-1);
      if (!hit?.otp) throw new Error(`msg91 fake sent no code to ${mobile}`);
      return hit.otp;
    },
  });
}

export interface TwilioSent {
  sid: string;
  to: string;
  from: string;
  body: string;
  /** The host and code of the body's origin-bound last line (`@<host> #<code>`), if it ends with one. */
  originBound: { host: string; code: string } | null;
  /** The `StatusCallback` URL sent with the message, where status changes are posted. */
  statusCallback: string | null;
}
export type TwilioMode = 'ratelimit';
export interface TwilioCallback {
  url: string;
  headers: Record<string, string>;
  body: string;
}
export type TwilioFake = FakeServer<TwilioMode> & {
  sent: TwilioSent[];
  /** The signed status callback Twilio would post for `sid` (https://www.twilio.com/docs/usage/security). */
  statusCallback(sid: string, status: string, extra?: Record<string, string>): TwilioCallback;
};

/**
 * `X-Twilio-Signature` as Twilio's security page describes it: take the full URL of the request, append
 * each POST parameter's name and value sorted alphabetically by name, sign with HMAC-SHA1 keyed by the
 * Auth Token, and Base64-encode (https://www.twilio.com/docs/usage/security#validating-requests).
 */
export function twilioRequestSignature(authToken: string, url: string, params: Record<string, string>) {
  let data = url;
  for (const name of Object.keys(params).sort()) data += name + params[name];
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * Twilio: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth (Account SID : Auth Token),
 * a form body with `To` (E.164), `From`, `Body`. 201 with the Message resource (`sid` SM…, `status`
 * queued), or `{code, message, more_info, status}`: 20003 (401) bad credentials, 21211 (400) invalid `To`,
 * 21602 (400) no `Body`, 21212 (400) invalid `From`, `ratelimit` 20429 (429).
 */
export async function startTwilioFake(opts: {
  accountSid: string;
  authToken: string;
  from: string;
}): Promise<TwilioFake> {
  const sent: TwilioSent[] = [];
  const error = (res: ServerResponse, status: number, code: number, message: string) =>
    json(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
  const fake = await startFake<TwilioMode>((req, res, mode) => {
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.path);
    if (req.method !== 'POST' || !match) return error(res, 404, 20404, 'The requested resource was not found');
    const expected = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected || match[1] !== opts.accountSid) {
      return error(res, 401, 20003, 'Authenticate');
    }
    if (mode === 'ratelimit') return error(res, 429, 20429, 'Too Many Requests');
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return error(res, 400, 20001, 'Invalid content type');
    }
    const form = new URLSearchParams(req.body);
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to) || to.startsWith('+916000')) {
      return error(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    }
    if (from !== opts.from) return error(res, 400, 21212, `The 'From' number ${from} is not a valid phone number.`);
    if (body === '') return error(res, 400, 21602, 'Message body is required.');
    const sid = `SM${randomBytes(16).toString('hex')}`;
    sent.push({ sid, to, from, body, originBound: parseOriginBound(body), statusCallback: form.get('StatusCallback') });
    return json(res, 201, {
      sid,
      account_sid: opts.accountSid,
      to,
      from,
      body,
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
      error_message: null,
      uri: `/2010-04-01/Accounts/${opts.accountSid}/Messages/${sid}.json`,
    });
  });
  /**
   * The parameters of a status callback (https://www.twilio.com/docs/messaging/guides/track-outbound-message-status):
   * MessageSid, MessageStatus, ErrorCode when it failed, and the account, sender and recipient.
   */
  function statusCallback(sid: string, status: string, extra: Record<string, string> = {}): TwilioCallback {
    const message = sent.find((m) => m.sid === sid);
    if (!message?.statusCallback) throw new Error(`fake: message ${sid} asked for no StatusCallback`);
    const params: Record<string, string> = {
      AccountSid: opts.accountSid,
      ApiVersion: '2010-04-01',
      From: message.from,
      MessageSid: sid,
      MessageStatus: status,
      SmsSid: sid,
      SmsStatus: status,
      To: message.to,
      ...extra,
    };
    return {
      url: message.statusCallback,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioRequestSignature(opts.authToken, message.statusCallback, params),
      },
      body: new URLSearchParams(params).toString(),
    };
  }
  return Object.assign(fake, { sent, statusCallback });
}
