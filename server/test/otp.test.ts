import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ OTP_SENDS_PER_IP_PER_HOUR: '5000' });
});
afterAll(async () => {
  await ctx.close();
});

const send = (target: unknown, options: { ip?: string } = {}) =>
  ctx.post(`${API}/common/otp/send`, { target, type: 1 }, options);

const register = (username: string, verifyCode: string) =>
  ctx.post(`${API}/common/user/register`, {
    username,
    password: 'secret12',
    password2: 'secret12',
    verifyCode,
    inviteCode: ctx.admin.inviteCode,
  });

describe('otp/send', () => {
  it('accepts an Indian mobile or an e-mail and stores the phone as 91XXXXXXXXXX', async () => {
    const phone = ctx.uniquePhone();
    const res = await send(phone);
    expect(res.body).toMatchObject({
      code: 200,
      key: 'code_sent',
      message: 'Verification code sent',
      data: { resendAfterSeconds: 60, expiresInSeconds: 600 },
    });
    expect(await ctx.lastCode(`91${phone}`)).toMatch(/^\d{6}$/);
    expect((await send('Someone@Example.in')).status).toBe(200);
    expect(await ctx.lastCode('someone@example.in')).toMatch(/^\d{6}$/);
  });

  it.each(['', '12345', '5123456789', 'someone@', 'a b@c.d', '+1 2025550123'])('refuses %j', async (target) => {
    const res = await send(target);
    expect(res.status).toBe(400);
    // A space makes an address more than one plain mailbox, and the answer says so.
    const key =
      target === '' ? 'enter_phone_or_email' : target === 'a b@c.d' ? 'email_plain_address_only' : 'target_invalid';
    expect(res.body).toMatchObject({ code: 400, key, data: { fields: { target: key } } });
  });

  it('refuses an unknown type', async () => {
    const res = await ctx.post(`${API}/common/otp/send`, { target: ctx.uniquePhone(), type: 2 });
    expect(res.body).toMatchObject({ code: 400, key: 'otp_type_invalid' });
  });

  it('refuses a resend within 60 s with the seconds left', async () => {
    const phone = ctx.uniquePhone();
    await send(phone);
    ctx.advance(20_000);
    const again = await send(phone);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ key: 'otp_resend_wait', data: { seconds: 40 } });
    expect(again.body.message).toBe('Please wait 40 s before requesting another code');
    ctx.advance(40_000);
    expect((await send(phone)).status).toBe(200);
  });

  it('limits codes per address, high enough for carrier-grade NAT', async () => {
    const limited = await createTestContext({ OTP_SENDS_PER_IP_PER_HOUR: '3' });
    try {
      for (let i = 0; i < 3; i += 1) {
        const res = await limited.post(
          `${API}/common/otp/send`,
          { target: limited.uniquePhone(), type: 1 },
          { ip: '10.9.9.9' },
        );
        expect(res.status).toBe(200);
      }
      const blocked = await limited.post(
        `${API}/common/otp/send`,
        { target: limited.uniquePhone(), type: 1 },
        { ip: '10.9.9.9' },
      );
      expect(blocked.body).toMatchObject({ code: 429, key: 'otp_rate_limited' });
      const other = await limited.post(
        `${API}/common/otp/send`,
        { target: limited.uniquePhone(), type: 1 },
        { ip: '10.9.9.8' },
      );
      expect(other.status).toBe(200);
    } finally {
      await limited.close();
    }
    const { loadConfig } = await import('../src/platform/config');
    expect(loadConfig({}).OTP_SENDS_PER_IP_PER_HOUR).toBeGreaterThanOrEqual(100);
  });

  it('limits codes per target per hour', async () => {
    const phone = ctx.uniquePhone();
    for (let i = 0; i < 10; i += 1) {
      expect((await send(phone)).status).toBe(200);
      ctx.advance(61_000);
    }
    expect((await send(phone)).body.key).toBe('otp_rate_limited');
  });
});

describe('code checks on register', () => {
  it('expires a code after 10 minutes', async () => {
    const phone = ctx.uniquePhone();
    await send(phone);
    const code = await ctx.lastCode(`91${phone}`);
    ctx.advance(10 * 60_000 + 1000);
    expect((await register(phone, code)).body.key).toBe('verification_code_not_found');
  });

  it('voids a code after 5 wrong tries, even for the right code', async () => {
    const phone = ctx.uniquePhone();
    await send(phone);
    const code = await ctx.lastCode(`91${phone}`);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let remaining = 4; remaining >= 1; remaining -= 1) {
      const res = await register(phone, wrong);
      expect(res.body).toMatchObject({ key: 'verification_code_incorrect', data: { remaining } });
    }
    expect((await register(phone, wrong)).body.key).toBe('verification_code_not_found');
    expect((await register(phone, code)).body.key).toBe('verification_code_not_found');
  });

  it('accepts a code once', async () => {
    const phone = ctx.uniquePhone();
    await send(phone);
    const code = await ctx.lastCode(`91${phone}`);
    expect((await register(phone, code)).status).toBe(200);
    expect(
      (
        await ctx.post(`${API}/common/user/resetpass`, {
          username: phone,
          verifyCode: code,
          password: 'another1',
          password2: 'another1',
        })
      ).body.key,
    ).toBe('verification_code_not_found');
  });

  it('lets only one of many parallel registrations with one code succeed', async () => {
    const phone = ctx.uniquePhone();
    await send(phone);
    const code = await ctx.lastCode(`91${phone}`);
    const results = await Promise.all(Array.from({ length: 8 }, () => register(phone, code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(['username_taken', 'verification_code_not_found']).toContain(r.body.key);
    }
  });
});
