import { DLT_VARIABLE_MAX, MESSAGES, parseOriginBound, SMS_MESSAGE_MAX, SMS_MESSAGE_VARIABLES } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpDeliveries } from '../src/db/schema';
import { codeSmsText } from '../src/features/otp/otp.senders';
import { createTestContext, type TestContext } from './helpers';
import { type Msg91Fake, startMsg91Fake } from './sms-fakes';

// Operator SMS within the DLT limits and MSG91's v4 delivery reports
// (docs/decisions/msg91-dlt-limits.md).
const API = '/go_user/api/v1';
const AUTHKEY = 'msg91-dlt-authkey-0001';
const TEMPLATE = '64f0c0ffee0000000000bb01';
const MESSAGE_TEMPLATE = '64f0c0ffee0000000000bb03';
const REPORT_TOKEN = 'report-token-dlt-abcdefghijklmnopqrstuvwxyz';

let msg91: Msg91Fake;
let ctx: TestContext;

beforeAll(async () => {
  // The OTP template registered as docs/operations.md says (server/test/operations-guide.test.ts holds
  // the guide to this text): the message, then the origin-bound line with the app's host.
  msg91 = await startMsg91Fake({
    authkey: AUTHKEY,
    templates: [TEMPLATE, MESSAGE_TEMPLATE],
    texts: { [TEMPLATE]: codeSmsText('en_US', '##OTP##', 'kamai.in') },
  });
  ctx = await createTestContext({
    SMS_PROVIDER: 'msg91',
    MSG91_AUTH_KEY: AUTHKEY,
    MSG91_OTP_TEMPLATE_ID: TEMPLATE,
    MSG91_MESSAGE_TEMPLATE_ID: MESSAGE_TEMPLATE,
    MSG91_BASE_URL: msg91.url,
    MSG91_REPORT_TOKEN: REPORT_TOKEN,
    OTP_SENDS_PER_IP_PER_HOUR: '5000',
    OTP_ADMIN_SENDS_PER_HOUR: '100',
  });
});
afterAll(async () => {
  await ctx?.close();
  await msg91?.close();
});

const deliveriesOf = (target: string) =>
  ctx.db.select().from(otpDeliveries).where(eq(otpDeliveries.target, target)).orderBy(otpDeliveries.id);

describe('operator SMS within the DLT variable cap', () => {
  it('the limits are the contract’s: 5 variables of 30 characters', () => {
    expect([DLT_VARIABLE_MAX, SMS_MESSAGE_VARIABLES, SMS_MESSAGE_MAX]).toEqual([30, 5, 150]);
  });

  it('a message of the longest length goes out as template variables of at most 30 characters each', async () => {
    const token = await ctx.adminToken();
    const phone = ctx.uniquePhone();
    // Devanagari: 150 code points (a letter is never split across two variables).
    const text = `।${'आपकी निकासी का भुगतान हो गया। '.repeat(5)}`.slice(0, SMS_MESSAGE_MAX);
    expect([...text].length).toBe(SMS_MESSAGE_MAX);
    expect(text.trim()).toBe(text);
    const res = await ctx.post('/obj/otp/sms', { target: phone, message: text }, { token });
    expect(res.status).toBe(200);
    const body = JSON.parse(msg91.requests.at(-1)?.body ?? '{}');
    const recipient = body.recipients[0];
    expect(Object.keys(recipient)).toEqual(['mobiles', 'var1', 'var2', 'var3', 'var4', 'var5']);
    for (const name of ['var1', 'var2', 'var3', 'var4', 'var5']) {
      expect([...recipient[name]].length).toBeLessThanOrEqual(DLT_VARIABLE_MAX);
    }
    expect(body.unicode).toBe(1);
    expect(msg91.sent.at(-1)).toMatchObject({ mobile: `91${phone}`, message: text, unicode: true });
  });

  it('a short message fills var1 and leaves the others empty', async () => {
    const token = await ctx.adminToken();
    const phone = ctx.uniquePhone();
    await ctx.post('/obj/otp/sms', { target: phone, message: 'Paid' }, { token });
    expect(JSON.parse(msg91.requests.at(-1)?.body ?? '{}').recipients[0]).toEqual({
      mobiles: `91${phone}`,
      var1: 'Paid',
      var2: '',
      var3: '',
      var4: '',
      var5: '',
    });
  });

  it('a longer message is refused with a translated message naming the limit, and nothing is sent', async () => {
    const token = await ctx.adminToken();
    const phone = ctx.uniquePhone();
    const before = msg91.requests.length;
    const res = await ctx.post(
      '/obj/otp/sms',
      { target: phone, message: 'x'.repeat(SMS_MESSAGE_MAX + 1) },
      { token, lang: 'mr-IN' },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      key: 'sms_message_too_long',
      message: MESSAGES.mr_IN.sms_message_too_long.replace('{{max}}', String(SMS_MESSAGE_MAX)),
    });
    expect(msg91.requests.length).toBe(before);
    expect(await deliveriesOf(`91${phone}`)).toEqual([]);
    // E-mail has no DLT: the same text goes out by e-mail.
    const mail = await ctx.post(
      '/obj/otp/email',
      { target: `${phone}@example.in`, message: 'x'.repeat(151) },
      { token },
    );
    expect(mail.status).toBe(200);
  });

  it('the MSG91 fake refuses a variable longer than 30 characters, as the operators do', async () => {
    const res = await fetch(`${msg91.url}/api/v5/flow`, {
      method: 'POST',
      headers: { authkey: AUTHKEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        template_id: MESSAGE_TEMPLATE,
        recipients: [{ mobiles: '919812345678', var1: 'x'.repeat(DLT_VARIABLE_MAX + 1) }],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error' });
  });
});

describe('a code SMS through the registered OTP template', () => {
  it('ends with the origin-bound line, its code the one the server checks, each within the DLT cap', async () => {
    const phone = ctx.uniquePhone();
    expect((await ctx.post(`${API}/common/otp/send`, { target: phone, type: 1 })).status).toBe(200);
    const sent = msg91.sent.filter((s) => s.mobile === `91${phone}`).at(-1);
    expect(sent?.otp).toMatch(/^\d{6}$/);
    expect(sent?.otp?.length).toBeLessThanOrEqual(DLT_VARIABLE_MAX);
    expect(parseOriginBound(sent?.text ?? '')).toEqual({ host: 'kamai.in', code: sent?.otp });
    expect(sent?.text?.startsWith(`Your Kamai verification code is ${sent.otp}.`)).toBe(true);
    const body = { username: phone, password: 'secret12', password2: 'secret12', inviteCode: ctx.admin.inviteCode };
    const registered = await ctx.post(`${API}/common/user/register`, { ...body, verifyCode: sent?.otp });
    expect(registered.status).toBe(200);
  });
});

describe('MSG91 v4 delivery reports', () => {
  const reportUrl = `${API}/common/sms/report/msg91?token=${REPORT_TOKEN}`;
  const postJson = (payload: string) =>
    ctx.app.inject({ method: 'POST', url: reportUrl, headers: { 'content-type': 'application/json' }, payload });

  async function sentCode() {
    const phone = ctx.uniquePhone();
    expect((await ctx.post(`${API}/common/otp/send`, { target: phone, type: 1 })).status).toBe(200);
    const [row] = await deliveriesOf(`91${phone}`);
    if (!row?.providerMessageId) throw new Error('no msg91 request id');
    return { target: `91${phone}`, requestId: row.providerMessageId };
  }

  it('a v4 "delivered" report marks the send delivered', async () => {
    const { target, requestId } = await sentCode();
    const res = await postJson(msg91.v4Report(requestId, 'delivered', 'DELIVERED'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { updated: 1 } });
    expect((await deliveriesOf(target))[0]?.status).toBe('delivered');
  });

  it('a v4 "failed" report marks it undelivered with the reason', async () => {
    const { target, requestId } = await sentCode();
    const res = await postJson(msg91.v4Report(requestId, 'failed', 'Blocked number'));
    expect(res.json()).toMatchObject({ data: { updated: 1 } });
    expect(await deliveriesOf(target)).toMatchObject([
      { status: 'undelivered', error: 'msg91 report failed: Blocked number' },
    ]);
  });

  it('the page’s sample (meta "0") names no message: answered 2xx, nothing changed', async () => {
    const { target } = await sentCode();
    const sample =
      '[{"data":[{"meta":"0","INMSID":"0","description":"DELIVERED","ts":1726729500}],"event":"delivered"}]';
    const res = await postJson(sample);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { updated: 0 } });
    expect((await deliveriesOf(target))[0]?.status).toBe('sent');
  });

  it('still needs the report token', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${API}/common/sms/report/msg91`,
      headers: { 'content-type': 'application/json' },
      payload: msg91.v4Report('x', 'delivered', 'DELIVERED'),
    });
    expect(res.statusCode).toBe(401);
  });
});
