import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, otpDeliveries, otpOutbox } from '../src/db/schema';
import { ProviderError } from '../src/features/otp/otp.senders';
import { msg91Client, smsSenderFor, twilioClient } from '../src/features/otp/sms.providers';
import { checkMsg91Report, parseMsg91Report } from '../src/features/otp/sms.reports';
import { ConfigError, loadConfig } from '../src/platform/config';
import { createTestContext, type TestContext } from './helpers';
import { type Msg91Fake, startMsg91Fake, startTwilioFake, type TwilioFake, twilioRequestSignature } from './sms-fakes';

const API = '/go_user/api/v1';
const AUTHKEY = 'msg91-test-authkey-0001';
const TEMPLATE = '64f0c0ffee0000000000aa01';
const TEMPLATE_HI = '64f0c0ffee0000000000aa02';
const MESSAGE_TEMPLATE = '64f0c0ffee0000000000aa03';
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-token-0001';
const FROM = '+15005550006';
const REPORT_TOKEN = 'report-token-abcdefghijklmnopqrstuvwxyz';

let msg91: Msg91Fake;
let twilio: TwilioFake;
let ctx: TestContext;
let sandbox: TestContext;

const providerEnv = () => ({
  MSG91_AUTH_KEY: AUTHKEY,
  MSG91_OTP_TEMPLATE_ID: TEMPLATE,
  MSG91_OTP_TEMPLATE_ID_HI_IN: TEMPLATE_HI,
  MSG91_MESSAGE_TEMPLATE_ID: MESSAGE_TEMPLATE,
  MSG91_BASE_URL: msg91.url,
  MSG91_REPORT_TOKEN: REPORT_TOKEN,
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_AUTH_TOKEN: TOKEN,
  TWILIO_FROM: FROM,
  TWILIO_BASE_URL: twilio.url,
});

beforeAll(async () => {
  msg91 = await startMsg91Fake({ authkey: AUTHKEY, templates: [TEMPLATE, TEMPLATE_HI, MESSAGE_TEMPLATE] });
  twilio = await startTwilioFake({ accountSid: SID, authToken: TOKEN, from: FROM });
  ctx = await createTestContext({
    ...providerEnv(),
    PUBLIC_URL: 'https://kamai.in',
    SMS_PROVIDER: 'msg91,twilio',
    // A provider that does not answer hands over after this long (5 s in production).
    SMS_TIMEOUT_MS: '3000',
    OTP_SENDS_PER_IP_PER_HOUR: '5000',
    OTP_ADMIN_SENDS_PER_HOUR: '6',
  });
  sandbox = await createTestContext({ OTP_SENDS_PER_IP_PER_HOUR: '5000' });
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
  await msg91?.close();
  await twilio?.close();
});
beforeEach(() => {
  msg91.mode = 'ok';
  twilio.mode = 'ok';
});

const send = (c: TestContext, target: string, lang?: string) =>
  c.post(`${API}/common/otp/send`, { target, type: 1 }, { lang });
const deliveriesOf = (c: TestContext, target: string) =>
  c.db.select().from(otpDeliveries).where(eq(otpDeliveries.target, target)).orderBy(otpDeliveries.id);
const requestsTo = (fake: Msg91Fake | TwilioFake, mobile: string) =>
  fake.requests.filter((r) => r.query.get('mobile') === mobile || r.body.includes(encodeURIComponent(`+${mobile}`)));

describe('configuration', () => {
  it('defaults to the sandbox, which says so', () => {
    expect(loadConfig({}).SMS_PROVIDER).toEqual(['sandbox']);
    const log = { db: ctx.db, log: ctx.app.log };
    expect(smsSenderFor(loadConfig({}), log).sandbox).toBe(true);
    const chain = smsSenderFor(loadConfig({ ...providerEnv(), SMS_PROVIDER: 'msg91,twilio' }), log);
    expect(chain.sandbox).toBe(false);
    expect(chain.providers).toEqual(['msg91', 'twilio']);
  });

  it.each([
    [{ SMS_PROVIDER: 'msg91' }, /MSG91_AUTH_KEY: is required when SMS_PROVIDER includes msg91/],
    [{ SMS_PROVIDER: 'msg91', MSG91_AUTH_KEY: AUTHKEY }, /MSG91_OTP_TEMPLATE_ID: is required/],
    [
      { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID },
      /TWILIO_AUTH_TOKEN: is required[\s\S]*TWILIO_FROM: is required/,
    ],
    [{ SMS_PROVIDER: 'kaleyra' }, /SMS_PROVIDER: unknown provider kaleyra/],
    [{ SMS_PROVIDER: 'msg91,msg91' }, /SMS_PROVIDER: lists a provider twice/],
    [{ SMS_PROVIDER: 'sandbox,twilio' }, /sandbox cannot be part of a failover list/],
    [{ TWILIO_ACCOUNT_SID: 'AC123' }, /TWILIO_ACCOUNT_SID: must be AC followed by 32 hex digits/],
    [{ MSG91_BASE_URL: 'ftp://x' }, /MSG91_BASE_URL: must be an http\(s\) URL/],
    [{ MSG91_REPORT_TOKEN: 'short' }, /MSG91_REPORT_TOKEN/],
    [{ MSG91_REPORT_IPS: '1.2.3.4,not-an-ip' }, /MSG91_REPORT_IPS/],
    [{ MSG91_OTP_TEMPLATE_ID_GU_IN: 'bad id!' }, /MSG91_OTP_TEMPLATE_ID_GU_IN/],
  ])('refuses %j at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes a full failover configuration', () => {
    const config = loadConfig({ ...providerEnv(), SMS_PROVIDER: ' MSG91 , twilio', MSG91_REPORT_IPS: '10.0.0.1, ::1' });
    expect(config.SMS_PROVIDER).toEqual(['msg91', 'twilio']);
    expect(config.MSG91_REPORT_IPS).toEqual(['10.0.0.1', '::1']);
    expect(config.MSG91_BASE_URL).toBe(msg91.url);
  });
});

describe('MSG91 sends our own code', () => {
  it('registers a phone with the code MSG91 delivered, in the Hindi template, never storing the code', async () => {
    const phone = ctx.uniquePhone();
    const res = await send(ctx, phone, 'hi-IN');
    expect(res.status).toBe(200);
    const request = requestsTo(msg91, `91${phone}`).at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/v5/otp');
    expect(request?.headers.authkey).toBe(AUTHKEY);
    // The key travels in the header, never in the URL (which proxies log).
    expect(request?.query.has('authkey')).toBe(false);
    expect(request?.query.get('template_id')).toBe(TEMPLATE_HI);
    expect(request?.query.get('otp_length')).toBe('6');
    expect(request?.query.get('otp_expiry')).toBe('10');
    expect(request?.query.get('unicode')).toBe('1');
    const code = msg91.lastCodeFor(`91${phone}`);
    expect(code).toMatch(/^\d{6}$/);
    expect(twilio.requests.some((r) => r.body.includes(phone))).toBe(false);

    // The server still checks the code: a wrong one fails, the delivered one registers.
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const body = { username: phone, password: 'secret12', password2: 'secret12', inviteCode: ctx.admin.inviteCode };
    expect((await ctx.post(`${API}/common/user/register`, { ...body, verifyCode: wrong })).body.key).toBe(
      'verification_code_incorrect',
    );
    expect((await ctx.post(`${API}/common/user/register`, { ...body, verifyCode: code })).status).toBe(200);

    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows).toMatchObject([
      {
        channel: 'sms',
        kind: 'code',
        provider: 'msg91',
        status: 'sent',
        providerMessageId: msg91.sent.at(-1)?.requestId,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(code);
    // A real sender puts nothing in the sandbox outbox.
    expect(
      await ctx.db
        .select()
        .from(otpOutbox)
        .where(eq(otpOutbox.target, `91${phone}`)),
    ).toEqual([]);
  });

  it('uses the default template for a locale without its own, as a plain (not Unicode) SMS in English', async () => {
    const phone = ctx.uniquePhone();
    expect((await send(ctx, phone, 'en-US')).status).toBe(200);
    const request = requestsTo(msg91, `91${phone}`).at(-1);
    expect(request?.query.get('template_id')).toBe(TEMPLATE);
    expect(request?.query.has('unicode')).toBe(false);
    expect((await send(ctx, ctx.uniquePhone(), 'gu-IN')).status).toBe(200);
    expect(msg91.requests.at(-1)?.query.get('template_id')).toBe(TEMPLATE);
  });
});

describe('Twilio status callbacks', () => {
  /** A message Twilio took (MSG91 down), and the path of the callback URL it was given. */
  async function viaTwilio() {
    msg91.mode = 'down';
    const phone = ctx.uniquePhone();
    expect((await send(ctx, phone)).status).toBe(200);
    const message = twilio.sent.find((s) => s.to === `+91${phone}`);
    if (!message?.statusCallback) throw new Error('no StatusCallback sent to Twilio');
    return { phone, message, path: new URL(message.statusCallback).pathname };
  }

  it('sends StatusCallback with each message; a signed "delivered" marks the delivery delivered, once', async () => {
    const { phone, message, path } = await viaTwilio();
    expect(path).toBe(`${API}/common/sms/report/twilio`);
    const callback = twilio.statusCallback(message.sid, 'delivered');
    const res = await ctx.app.inject({ method: 'POST', url: path, headers: callback.headers, payload: callback.body });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ updated: 1 });
    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows.at(-1)).toMatchObject({ provider: 'twilio', status: 'delivered' });
    const late = twilio.statusCallback(message.sid, 'undelivered', { ErrorCode: '30003' });
    const again = await ctx.app.inject({ method: 'POST', url: path, headers: late.headers, payload: late.body });
    expect(again.json().data).toEqual({ updated: 0 });
  });

  it('"undelivered" records the error code', async () => {
    const { phone, message, path } = await viaTwilio();
    const callback = twilio.statusCallback(message.sid, 'undelivered', { ErrorCode: '30005' });
    await ctx.app.inject({ method: 'POST', url: path, headers: callback.headers, payload: callback.body });
    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows.at(-1)).toMatchObject({ provider: 'twilio', status: 'undelivered', error: 'twilio undelivered 30005' });
  });

  it('refuses a callback that is unsigned, signed with another token or altered: 401, nothing changes', async () => {
    const { phone, message, path } = await viaTwilio();
    const good = twilio.statusCallback(message.sid, 'delivered');
    const { 'x-twilio-signature': signature, ...unsigned } = good.headers;
    const forged = twilioRequestSignature(
      'not-the-auth-token-00',
      good.url,
      Object.fromEntries(new URLSearchParams(good.body)),
    );
    for (const attempt of [
      { headers: unsigned, payload: good.body },
      { headers: { ...good.headers, 'x-twilio-signature': forged }, payload: good.body },
      { headers: good.headers, payload: good.body.replace('delivered', 'undelivered') },
      { headers: good.headers, payload: `${good.body}&Extra=1` },
    ]) {
      const res = await ctx.app.inject({ method: 'POST', url: path, ...attempt });
      expect(res.statusCode).toBe(401);
    }
    expect(signature).toBeTruthy();
    expect((await deliveriesOf(ctx, `91${phone}`)).at(-1)).toMatchObject({ provider: 'twilio', status: 'sent' });
  });
});

describe('failover', () => {
  it.each([
    ['down', 'msg91 503'],
    ['ip', 'msg91 418 418: IP not whitelisted'],
    ['balance', 'msg91 200: Insufficient balance'],
    ['error200', 'msg91 200: Invalid template_id'],
  ] as const)('MSG91 %s: Twilio sends the translated text, once each', async (mode, error) => {
    msg91.mode = mode;
    const phone = ctx.uniquePhone();
    const res = await send(ctx, phone, 'mr-IN');
    expect(res.status).toBe(200);
    expect(requestsTo(msg91, `91${phone}`)).toHaveLength(1);
    const sent = twilio.sent.filter((s) => s.to === `+91${phone}`);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.from).toBe(FROM);
    expect(sent[0]?.body).toMatch(/^तुमचा Kamai पडताळणी कोड \d{6} आहे\. तो 10 मिनिटांसाठी वैध आहे\./);
    // The code again on the last line, bound to PUBLIC_URL's host (WebOTP, iOS autofill).
    const code = /कोड (\d{6})/.exec(sent[0]?.body ?? '')?.[1];
    expect(sent[0]?.originBound).toEqual({ host: 'kamai.in', code });
    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows).toMatchObject([
      { provider: 'msg91', status: 'failed', providerMessageId: null },
      { provider: 'twilio', status: 'sent', providerMessageId: sent[0]?.sid },
    ]);
    expect(rows[0]?.error).toContain(error);
  });

  it('MSG91 not answering: its request is abandoned after the timeout and Twilio sends; nothing is sent twice', async () => {
    msg91.mode = 'hang';
    const phone = ctx.uniquePhone();
    const res = await send(ctx, phone);
    expect(res.status).toBe(200);
    msg91.mode = 'ok';
    expect(requestsTo(msg91, `91${phone}`)).toHaveLength(1);
    expect(twilio.sent.filter((s) => s.to === `+91${phone}`)).toHaveLength(1);
    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows.map((r) => [r.provider, r.status])).toEqual([
      ['msg91', 'failed'],
      ['twilio', 'sent'],
    ]);
    expect(rows[0]?.error).toBe('no answer within 3000 ms');
  });

  it('a retry or a burst of parallel requests for one number reaches the providers once', async () => {
    const phone = ctx.uniquePhone();
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(ctx, phone)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 429).every((a) => a.body.key === 'otp_resend_wait')).toBe(true);
    expect((await send(ctx, phone)).body.key).toBe('otp_resend_wait');
    expect(requestsTo(msg91, `91${phone}`)).toHaveLength(1);
    expect(await deliveriesOf(ctx, `91${phone}`)).toHaveLength(1);
  });

  it('both refusing: 503, each attempt recorded, and the code is forgotten so the user may ask again at once', async () => {
    msg91.mode = 'down';
    twilio.mode = 'ratelimit';
    const phone = ctx.uniquePhone();
    const res = await send(ctx, phone, 'pa-IN');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 503, key: 'service_unavailable' });
    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows.map((r) => [r.provider, r.status])).toEqual([
      ['msg91', 'failed'],
      ['twilio', 'failed'],
    ]);
    expect(rows[1]?.error).toBe('twilio 429 20429: Too Many Requests');
    msg91.mode = 'ok';
    twilio.mode = 'ok';
    expect((await send(ctx, phone)).status).toBe(200);
  });

  it('a number both providers refuse answers "invalid phone number format", not 503', async () => {
    // The fakes stand for an operator network that refuses 916000…: MSG91 "Mobile no. not valid", Twilio 21211.
    const phone = `6000${String(Date.now()).slice(-6)}`;
    const res = await send(ctx, phone);
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('invalid_phone_number_format');
    const rows = await deliveriesOf(ctx, `91${phone}`);
    expect(rows.map((r) => r.error)).toEqual([
      'msg91 400: Mobile no. not valid',
      `twilio 400 21211: The 'To' number +91${phone} is not a valid phone number.`,
    ]);
  });

  it('counts attempts by provider and outcome on /metrics', async () => {
    const samples = await ctx.metric('kamai_otp_deliveries_total');
    const count = (provider: string, status: string) =>
      samples.find((s) => s.labels.channel === 'sms' && s.labels.provider === provider && s.labels.status === status)
        ?.value ?? 0;
    expect(count('msg91', 'sent')).toBeGreaterThan(0);
    expect(count('msg91', 'failed')).toBeGreaterThan(0);
    expect(count('twilio', 'failed')).toBeGreaterThan(0);
  });
});

describe('provider clients against the fakes (documented errors)', () => {
  const signal = () => AbortSignal.timeout(5_000);
  const delivery = { channel: 'sms', target: '919812345678', locale: 'en_US', kind: 'code', code: '123456' } as const;

  it('MSG91 with a wrong authkey: 401, the provider is unavailable (not the number)', async () => {
    const config = loadConfig({ ...providerEnv(), MSG91_AUTH_KEY: 'wrong-key-000' });
    const failure = await msg91Client(config)
      .send(delivery, signal())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ failure: 'unavailable', detail: 'msg91 401 401: Authentication failure' });
  });

  it('MSG91 with a template it does not know: unavailable', async () => {
    const config = loadConfig({ ...providerEnv(), MSG91_OTP_TEMPLATE_ID: 'ffff0000ffff0000' });
    const failure = await msg91Client(config)
      .send(delivery, signal())
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ failure: 'unavailable', detail: 'msg91 400: Invalid template_id' });
  });

  it('Twilio with a wrong auth token: 20003, unavailable', async () => {
    const config = loadConfig({ ...providerEnv(), TWILIO_AUTH_TOKEN: 'not-the-token-0000' });
    const failure = await twilioClient(config)
      .send(delivery, signal())
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ failure: 'unavailable', detail: 'twilio 401 20003: Authenticate' });
  });

  it('Twilio with a From it does not own: 21212, unavailable (our configuration, not the number)', async () => {
    const config = loadConfig({ ...providerEnv(), TWILIO_FROM: '+15005550001' });
    const failure = await twilioClient(config)
      .send(delivery, signal())
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ failure: 'unavailable' });
    expect((failure as ProviderError).detail).toContain('21212');
  });

  it('Twilio sends basic auth and a form body with To in E.164', async () => {
    const config = loadConfig(providerEnv());
    const { messageId } = await twilioClient(config).send({ ...delivery, locale: 'zh_CN' }, signal());
    const request = twilio.requests.at(-1);
    expect(request?.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request?.body);
    expect(form.get('To')).toBe('+919812345678');
    expect(form.get('Body')).toBe('您的 Kamai 验证码是 123456，10 分钟内有效。请勿告诉任何人。');
    expect(messageId).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it("Twilio ends a code SMS with the origin-bound line of PUBLIC_URL's host, so the phone offers the code", async () => {
    const config = loadConfig({ ...providerEnv(), PUBLIC_URL: 'https://app.kamai.in:8443/start' });
    await twilioClient(config).send({ ...delivery, locale: 'hi_IN', code: '654321' }, signal());
    const sent = twilio.sent.at(-1);
    expect(sent?.body).toBe(
      'आपका Kamai सत्यापन कोड 654321 है। यह 10 मिनट तक मान्य है। इसे किसी के साथ साझा न करें।\n\n@app.kamai.in #654321',
    );
    expect(sent?.originBound).toEqual({ host: 'app.kamai.in', code: '654321' });
  });

  it('Twilio without PUBLIC_URL (development) sends the message alone, and an operator message never has the line', async () => {
    await twilioClient(loadConfig(providerEnv())).send(delivery, signal());
    expect(twilio.sent.at(-1)?.originBound).toBeNull();
    const config = loadConfig({ ...providerEnv(), PUBLIC_URL: 'https://kamai.in' });
    await twilioClient(config).send({ ...delivery, kind: 'message', text: 'Your withdrawal was paid' }, signal());
    expect(twilio.sent.at(-1)).toMatchObject({ body: 'Your withdrawal was paid', originBound: null });
  });
});

describe('MSG91 delivery reports', () => {
  const reportUrl = (token?: string) =>
    `${API}/common/sms/report/msg91${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
  const postForm = (c: TestContext, url: string, form: Record<string, string>) =>
    c.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  async function sentThroughMsg91() {
    const phone = ctx.uniquePhone();
    expect((await send(ctx, phone)).status).toBe(200);
    const [row] = await deliveriesOf(ctx, `91${phone}`);
    if (!row?.providerMessageId) throw new Error('no msg91 request id');
    return { target: `91${phone}`, requestId: row.providerMessageId };
  }

  it('a v2 form report marks the send delivered; a later contrary report does not undo it', async () => {
    const { target, requestId } = await sentThroughMsg91();
    const data = JSON.stringify([
      {
        senderId: 'KAMAIO',
        requestId,
        report: [{ date: '2026-11-24 10:06:20', number: target, status: '1', desc: 'DELIVERED' }],
        userId: '1',
        campaignName: 'API',
      },
    ]);
    const res = await postForm(ctx, reportUrl(REPORT_TOKEN), { data });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, data: { updated: 1 } });
    expect((await deliveriesOf(ctx, target))[0]?.status).toBe('delivered');

    const late = await ctx.post(reportUrl(REPORT_TOKEN), { requestId, status: '2', desc: 'FAILED', number: target });
    expect(late.body.data).toEqual({ updated: 0 });
    expect((await deliveriesOf(ctx, target))[0]?.status).toBe('delivered');
  });

  it('a v3 JSON report of a rejected SMS marks it undelivered with the reason', async () => {
    const { target, requestId } = await sentThroughMsg91();
    const res = await ctx.post(reportUrl(REPORT_TOKEN), {
      date: '2026-11-24 09:58:16',
      number: target,
      requestId,
      status: '17',
      desc: 'Blocked number',
    });
    expect(res.body.data).toEqual({ updated: 1 });
    expect(await deliveriesOf(ctx, target)).toMatchObject([
      { status: 'undelivered', error: 'msg91 report 17: Blocked number' },
    ]);
  });

  it('an unknown request id or a report that is not final changes nothing', async () => {
    const { target, requestId } = await sentThroughMsg91();
    expect(
      (await ctx.post(reportUrl(REPORT_TOKEN), { requestId: 'ffffffffffffffffffffffff', status: '1' })).body.data,
    ).toEqual({ updated: 0 });
    expect((await ctx.post(reportUrl(REPORT_TOKEN), { requestId, status: '8', desc: 'SUBMITTED' })).body.data).toEqual({
      updated: 0,
    });
    expect((await deliveriesOf(ctx, target))[0]?.status).toBe('sent');
  });

  it.each([
    ['no token', undefined, 401],
    ['a wrong token', 'report-token-abcdefghijklmnopqrstuvwxyZ', 401],
    ['an empty token', '', 401],
  ])('refuses a report with %s, changing nothing', async (_name, token, status) => {
    const { target, requestId } = await sentThroughMsg91();
    const res = await ctx.post(reportUrl(token), { requestId, status: '1', desc: 'DELIVERED' });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, key: 'unauthorized' });
    const form = await postForm(ctx, reportUrl(token), {
      data: JSON.stringify([{ requestId, report: [{ status: '1' }] }]),
    });
    expect(form.statusCode).toBe(status);
    expect((await deliveriesOf(ctx, target))[0]?.status).toBe('sent');
  });

  it('is closed (404) while no report token is configured', async () => {
    const res = await sandbox.post(reportUrl('anything-at-all-0000000000'), { requestId: 'x', status: '1' });
    expect(res.status).toBe(404);
    expect(res.body.key).toBe('route_not_found');
  });

  it('takes reports only from MSG91_REPORT_IPS when set', () => {
    const config = loadConfig({ MSG91_REPORT_TOKEN: REPORT_TOKEN, MSG91_REPORT_IPS: '203.0.113.10' });
    expect(() => checkMsg91Report(config, { token: REPORT_TOKEN, ip: '203.0.113.10' })).not.toThrow();
    expect(() => checkMsg91Report(config, { token: REPORT_TOKEN, ip: '::ffff:203.0.113.10' })).not.toThrow();
    expect(() => checkMsg91Report(config, { token: REPORT_TOKEN, ip: '198.51.100.7' })).toThrow(
      expect.objectContaining({ key: 'forbidden' }),
    );
    expect(() => checkMsg91Report(config, { token: 'nope', ip: '203.0.113.10' })).toThrow(
      expect.objectContaining({ key: 'unauthorized' }),
    );
  });

  it('refuses a v2 form whose data is not JSON, and form bodies on every other route', async () => {
    const bad = await postForm(ctx, reportUrl(REPORT_TOKEN), { data: '[{"requestId":' });
    expect(bad.statusCode).toBe(400);
    const login = await postForm(ctx, `${API}/common/user/login`, { username: ctx.admin.username, password: 'x' });
    expect(login.statusCode).toBe(415);
    expect(login.json().key).toBe('unsupported_media_type');
  });

  it('parses every documented shape', () => {
    expect(
      parseMsg91Report({
        data: JSON.stringify([
          {
            requestId: 'a',
            report: [
              { status: '1', desc: 'DELIVERED' },
              { status: '25', desc: 'REJECTED' },
            ],
          },
        ]),
      }),
    ).toEqual([
      { messageId: 'a', status: 'delivered' },
      { messageId: 'a', status: 'undelivered', error: 'msg91 report 25: REJECTED' },
    ]);
    expect(parseMsg91Report([{ requestId: 'b', status: 'Failed', failureReason: 'Absent subscriber' }])).toEqual([
      { messageId: 'b', status: 'undelivered', error: 'msg91 report Failed: Absent subscriber' },
    ]);
    expect(parseMsg91Report({ requestId: 'c', status: '9' })).toEqual([
      { messageId: 'c', status: 'undelivered', error: 'msg91 report 9: NDNC' },
    ]);
  });
});

describe('POST /obj/otp/sms and /obj/otp/email', () => {
  it('an admin sends a code through the configured SMS sender; the user can use it; audited', async () => {
    const phone = ctx.uniquePhone();
    const token = await ctx.adminToken();
    const res = await ctx.post('/obj/otp/sms', { target: `+91 ${phone}`, locale: 'hi_IN' }, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ kind: 'code', target: `91${phone}`, provider: 'msg91' });
    const code = msg91.lastCodeFor(`91${phone}`);
    expect(msg91.sent.at(-1)?.templateId).toBe(TEMPLATE_HI);
    const reg = await ctx.post(`${API}/common/user/register`, {
      username: phone,
      password: 'secret12',
      password2: 'secret12',
      verifyCode: code,
      inviteCode: ctx.admin.inviteCode,
    });
    expect(reg.status).toBe(200);
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `phone:91${phone}`));
    expect(audit).toMatchObject({
      action: 'otp.sms.code',
      after: { result: 'sent', provider: 'msg91', locale: 'hi_IN' },
    });
    expect(JSON.stringify(audit)).not.toContain(code);
  });

  it('an admin sends a message through the MSG91 flow template, falling over to Twilio', async () => {
    const phone = ctx.uniquePhone();
    const token = await ctx.adminToken();
    const text = 'Your withdrawal was paid';
    const res = await ctx.post('/obj/otp/sms', { target: phone, message: text }, { token });
    expect(res.body.data).toEqual({ kind: 'message', target: `91${phone}`, provider: 'msg91' });
    const request = msg91.requests.at(-1);
    expect(request?.path).toBe('/api/v5/flow');
    expect(request?.headers.authkey).toBe(AUTHKEY);
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      template_id: MESSAGE_TEMPLATE,
      short_url: '0',
      unicode: 0,
      recipients: [{ mobiles: `91${phone}`, var1: text, var2: '', var3: '', var4: '', var5: '' }],
    });
    expect(msg91.sent.at(-1)).toMatchObject({ unicode: false, templateId: MESSAGE_TEMPLATE });
    msg91.mode = 'down';
    const again = await ctx.post('/obj/otp/sms', { target: phone, message: text }, { token });
    expect(again.body.data.provider).toBe('twilio');
    expect(twilio.sent.at(-1)).toMatchObject({ to: `+91${phone}`, body: text });
    expect((await deliveriesOf(ctx, `91${phone}`)).map((r) => [r.kind, r.provider, r.status])).toEqual([
      ['message', 'msg91', 'sent'],
      ['message', 'msg91', 'failed'],
      ['message', 'twilio', 'sent'],
    ]);
  });

  it('sends an operator message in Hindi or Chinese through the Flow API as unicode', async () => {
    const token = await ctx.adminToken();
    for (const text of ['आपकी निकासी का भुगतान हो गया', '您的提现已到账']) {
      const phone = ctx.uniquePhone();
      const res = await ctx.post('/obj/otp/sms', { target: phone, message: text }, { token });
      expect(res.body.data).toMatchObject({ provider: 'msg91' });
      expect(JSON.parse(msg91.requests.at(-1)?.body ?? '{}')).toMatchObject({
        unicode: 1,
        template_id: MESSAGE_TEMPLATE,
      });
      expect(msg91.sent.at(-1)).toMatchObject({ mobile: `91${phone}`, message: text, unicode: true });
    }
  });

  it('the MSG91 fake refuses the retired flow_id, so the adapter is seen to send template_id', async () => {
    const res = await fetch(`${msg91.url}/api/v5/flow`, {
      method: 'POST',
      headers: { authkey: AUTHKEY, 'content-type': 'application/json' },
      body: JSON.stringify({ flow_id: MESSAGE_TEMPLATE, recipients: [{ mobiles: '919812345678', message: 'x' }] }),
    });
    expect(await res.json()).toMatchObject({ type: 'error' });
  });

  it('an undeliverable send answers in the envelope and is audited as refused', async () => {
    msg91.mode = 'down';
    twilio.mode = 'down';
    const phone = ctx.uniquePhone();
    const res = await ctx.post('/obj/otp/sms', { target: phone, message: 'hello' }, { token: await ctx.adminToken() });
    expect(res.status).toBe(503);
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `phone:91${phone}`));
    expect(audit?.after).toMatchObject({ result: 'refused', key: 'service_unavailable' });
  });

  it('e-mail through the sandbox sender: the code lands in the outbox', async () => {
    const token = await sandbox.adminToken();
    const res = await sandbox.post('/obj/otp/email', { target: 'Someone.Else@Example.in' }, { token });
    expect(res.body.data).toEqual({ kind: 'code', target: 'someone.else@example.in', provider: 'sandbox' });
    expect(await sandbox.lastCode('someone.else@example.in')).toMatch(/^\d{6}$/);
    const message = await sandbox.post('/obj/otp/email', { target: 'a@b.in', message: 'Hello' }, { token });
    expect(message.body.data).toEqual({ kind: 'message', target: 'a@b.in', provider: 'sandbox' });
  });

  it.each([
    ['/obj/otp/sms', { target: '' }, 'enter_phone_number'],
    ['/obj/otp/sms', { target: '12345' }, 'invalid_phone_number_format'],
    ['/obj/otp/sms', { target: 'a@b.in' }, 'invalid_phone_number_format'],
    ['/obj/otp/email', { target: '9812345678' }, 'enter_valid_email'],
    ['/obj/otp/sms', { target: '9812345678', message: '' }, 'validation_failed'],
    ['/obj/otp/sms', { target: '9812345678', message: 'x'.repeat(301) }, 'validation_failed'],
    ['/obj/otp/sms', { target: '9812345678', locale: 'fr_FR' }, 'validation_failed'],
  ])('%s refuses %j', async (path, body, key) => {
    const res = await sandbox.post(path, body, { token: await sandbox.adminToken() });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe(key);
  });

  it('is for admins only', async () => {
    const user = await sandbox.newUser();
    for (const path of ['/obj/otp/sms', '/obj/otp/email']) {
      expect((await sandbox.post(path, { target: '9812345678' })).status).toBe(401);
      expect((await sandbox.post(path, { target: '9812345678' }, { token: user.token })).status).toBe(403);
    }
    expect((await sandbox.get(`${API}/admin/otp/deliveries`, { token: user.token })).status).toBe(403);
  });

  it('is limited per operator (OTP_ADMIN_SENDS_PER_HOUR)', async () => {
    const token = await ctx.adminToken();
    const answers = [];
    for (let i = 0; i < 8; i++)
      answers.push(await ctx.post('/obj/otp/sms', { target: ctx.uniquePhone(), message: 'hi' }, { token }));
    expect(answers.at(-1)?.status).toBe(429);
    expect(answers.at(-1)?.body.key).toBe('too_many_requests');
  });
});

describe('GET /admin/otp/deliveries', () => {
  it('lists the attempts per target, newest first, with the delivery status', async () => {
    const phone = ctx.uniquePhone();
    msg91.mode = 'down';
    await send(ctx, phone);
    const token = await ctx.adminToken();
    const res = await ctx.get(`${API}/admin/otp/deliveries?target=91${phone}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.items).toMatchObject([
      { target: `91${phone}`, provider: 'twilio', status: 'sent', kind: 'code', channel: 'sms' },
      {
        target: `91${phone}`,
        provider: 'msg91',
        status: 'failed',
        error: 'msg91 503: <html>503 Service Temporarily Unavailable</html>',
      },
    ]);
    const first = await ctx.get(`${API}/admin/otp/deliveries?limit=1`, { token });
    expect(first.body.data.items).toHaveLength(1);
    const next = await ctx.get(`${API}/admin/otp/deliveries?limit=1&cursor=${first.body.data.nextCursor}`, { token });
    expect(next.body.data.items[0].id).toBeLessThan(first.body.data.items[0].id);
    const latest = await ctx.db.select().from(otpDeliveries).orderBy(desc(otpDeliveries.id)).limit(1);
    expect(first.body.data.items[0].id).toBe(latest[0]?.id);
  });
});
