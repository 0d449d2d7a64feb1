// Local fakes of MSG91 and Twilio for the SMS senders' tests (issue 13 §1), following the providers'
// published APIs (pages cited in docs/decisions.md, branch sms). Each checks what the real one checks
// and answers its documented errors; `mode` makes it misbehave on purpose.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  unicode: boolean;
}

export type Msg91Mode = 'balance' | 'ip' | 'error200';
export type Msg91Fake = FakeServer<Msg91Mode> & { sent: Msg91Sent[]; lastCodeFor(mobile: string): string };

/**
 * MSG91: `POST /api/v5/otp?template_id&mobile&otp...` (SendOTP) and `POST /api/v5/flow` (Flow), both with
 * the `authkey` header. Answers `{"type":"success","request_id"}` / `{"type":"success","message":<id>}`,
 * or `{"type":"error","message"}`: wrong key 401, unknown template 400, a mobile that is not 91 + 10 digits
 * 400 "Mobile no. not valid", `ip` 418 (API security: IP not whitelisted), `balance` "Insufficient balance".
 */
export async function startMsg91Fake(opts: { authkey: string; templates: string[] }): Promise<Msg91Fake> {
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
      sent.push({ requestId, mobile, templateId, otp, unicode: req.query.get('unicode') === '1' });
      return json(res, 200, { type: 'success', request_id: requestId });
    }
    const recipients = body.recipients as { mobiles?: string; message?: string }[] | undefined;
    const templateId = String(body.template_id ?? body.flow_id ?? '');
    if (!opts.templates.includes(templateId)) return json(res, 400, { type: 'error', message: 'Invalid template_id' });
    const first = Array.isArray(recipients) ? recipients[0] : undefined;
    if (!first?.mobiles || !/^91[6-9]\d{9}$/.test(first.mobiles)) {
      return json(res, 400, { type: 'error', message: 'Mobile no. not valid' });
    }
    sent.push({ requestId, mobile: first.mobiles, templateId, message: first.message, unicode: false });
    return json(res, 200, { type: 'success', message: requestId });
  });
  return Object.assign(fake, {
    sent,
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
}
export type TwilioMode = 'ratelimit';
export type TwilioFake = FakeServer<TwilioMode> & { sent: TwilioSent[] };

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
    sent.push({ sid, to, from, body });
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
  return Object.assign(fake, { sent });
}
