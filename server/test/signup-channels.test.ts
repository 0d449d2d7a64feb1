import { MESSAGES } from '@kamai/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpCodes, otpDeliveries } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';

// SIGNUP_CHANNELS (docs/operations.md "Go-live checklist"): a service that uses one channel says so to
// the web app and refuses a code on the other, with a translated envelope, before any row is written.
let emailOnly: TestContext;
let smsOnly: TestContext;
let both: TestContext;

beforeAll(async () => {
  const limits = { OTP_SENDS_PER_IP_PER_HOUR: '5000' };
  emailOnly = await createTestContext({ ...limits, SIGNUP_CHANNELS: 'email' });
  smsOnly = await createTestContext({ ...limits, SIGNUP_CHANNELS: 'sms' });
  both = await createTestContext(limits);
});
afterAll(async () => {
  await emailOnly?.close();
  await smsOnly?.close();
  await both?.close();
});

async function rowsFor(ctx: TestContext, target: string) {
  const [codes] = await ctx.db.select({ n: count() }).from(otpCodes).where(eq(otpCodes.target, target));
  const [deliveries] = await ctx.db.select({ n: count() }).from(otpDeliveries).where(eq(otpDeliveries.target, target));
  return { codes: codes?.n, deliveries: deliveries?.n };
}

describe('GET /common/otp/channels', () => {
  it('answers the configured channels, without a session', async () => {
    expect((await emailOnly.get(`${API}/common/otp/channels`)).body.data).toEqual({ channels: ['email'] });
    expect((await smsOnly.get(`${API}/common/otp/channels`)).body.data).toEqual({ channels: ['sms'] });
    expect((await both.get(`${API}/common/otp/channels`)).body.data).toEqual({ channels: ['sms', 'email'] });
  });
});

describe('POST /common/otp/send on a channel the service does not use', () => {
  it('an e-mail-only service refuses a phone number in the caller’s language and writes nothing', async () => {
    const phone = emailOnly.uniquePhone();
    const res = await emailOnly.post(`${API}/common/otp/send`, { target: phone, type: 1 }, { lang: 'hi-IN' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'otp_sms_disabled', message: MESSAGES.hi_IN.otp_sms_disabled });
    expect(await rowsFor(emailOnly, `91${phone}`)).toEqual({ codes: 0, deliveries: 0 });
    const email = `only-${phone}@example.com`;
    const ok = await emailOnly.post(`${API}/common/otp/send`, { target: email, type: 1 });
    expect(ok.status).toBe(200);
    expect(await emailOnly.lastCode(email)).toMatch(/^\d{6}$/);
  });

  it('a phone-only service refuses an e-mail address and sends to a phone', async () => {
    const phone = smsOnly.uniquePhone();
    const email = `sms-only-${phone}@example.com`;
    const res = await smsOnly.post(`${API}/common/otp/send`, { target: email, type: 1 }, { lang: 'zh-CN' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'otp_email_disabled', message: MESSAGES.zh_CN.otp_email_disabled });
    expect(await rowsFor(smsOnly, email)).toEqual({ codes: 0, deliveries: 0 });
    expect((await smsOnly.post(`${API}/common/otp/send`, { target: phone, type: 1 })).status).toBe(200);
  });

  it('a burst of refused requests never reaches a sender', async () => {
    const phone = emailOnly.uniquePhone();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => emailOnly.post(`${API}/common/otp/send`, { target: phone, type: 1 })),
    );
    expect(answers.map((a) => a.body.key)).toEqual(Array(10).fill('otp_sms_disabled'));
    expect(await rowsFor(emailOnly, `91${phone}`)).toEqual({ codes: 0, deliveries: 0 });
  });
});
