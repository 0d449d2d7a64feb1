import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RazorpayxFake, startRazorpayxFake } from '../server/test/razorpayx-fake';
import { launch, phonePage, uniquePhone } from './browser';
import { type RunningServer, startServer } from './server';

const KEYS = {
  keyId: 'rzp_test_KamaiE2e12345',
  keySecret: 'e2e-key-secret-0123',
  accountNumber: '7878780080316316',
  webhookSecret: 'e2e-webhook-secret-0123',
};
const WEBHOOK = '/go_user/api/v1/common/pay/notify/razorpayx';

/**
 * The real server with PAYOUT_GATEWAY=razorpayx pointed at the local RazorpayX fake: an approved
 * withdrawal becomes a payout at the fake, its signed `payout.processed` webhook reaches the server over
 * HTTP, and the user's list says "Payment successful"; a contradicting webhook shows in the console.
 */
describe('a withdrawal paid through RazorpayX (local fake)', () => {
  let fake: RazorpayxFake;
  let server: RunningServer;
  let browser: Browser;
  let adminToken = '';
  let inviteCode = '';

  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await res.json()) as { code: number; data: T };
    if (envelope.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
    return envelope.data;
  };

  /** The sandbox code this server logged for `target`. */
  async function code(target: string) {
    for (let i = 0; i < 100; i++) {
      for (const line of [...server.lines].reverse()) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; target?: string; code?: string };
        if (entry.msg === 'otp.sandbox' && entry.target === target && entry.code) return entry.code;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no code for ${target}`);
  }

  beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    server = await startServer({
      PAYOUT_GATEWAY: 'razorpayx',
      RAZORPAYX_KEY_ID: KEYS.keyId,
      RAZORPAYX_KEY_SECRET: KEYS.keySecret,
      RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
      RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
      RAZORPAYX_BASE_URL: fake.url,
    });
    fake.setWebhookUrl(`${server.url}${WEBHOOK}`);
    const output = server.lines.join('\n');
    const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
    inviteCode = field('invite code');
    adminToken = (
      await call<{ token: string }>('POST', '/go_user/api/v1/common/user/login', {
        username: field('username'),
        password: field('password'),
      })
    ).token;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('approve → payout created at RazorpayX → payout.processed webhook → "Payment successful"', async () => {
    const phone = uniquePhone();
    await call('POST', '/go_user/api/v1/common/otp/send', { target: phone, type: 1 });
    const { token } = await call<{ token: string }>('POST', '/go_user/api/v1/common/user/register', {
      username: phone,
      password: 'secret123',
      password2: 'secret123',
      verifyCode: await code(`91${phone}`),
      inviteCode,
    });
    const me = await call<{ id: number }>('GET', '/go_user/api/v1/user/user/detail', undefined, token);
    await call(
      'POST',
      '/go_user/api/v1/admin/revenue/add',
      { userId: me.id, amount: '500', remark: 'e2e' },
      adminToken,
    );
    await call(
      'POST',
      '/go_user/api/v1/user/wdaccount/bind',
      { accountNo: 'meera.s@okhdfc', accountName: 'Meera Shah' },
      token,
    );
    const { id } = await call<{ id: number }>('POST', '/go_user/api/v1/user/withdraw/add', { amount: '200' }, token);
    await call('POST', '/go_user/api/v1/admin/withdraw/review', { id, action: 'approve' }, adminToken);

    // The server's job worker creates the payout at the fake (basic auth, idempotency key, UPI).
    await expect.poll(() => fake.byReference(String(id)).length, { timeout: 20_000 }).toBe(1);
    const [payout] = fake.byReference(String(id));
    if (!payout) throw new Error('no payout');
    expect(payout).toMatchObject({ amount: 20000, mode: 'UPI', status: 'processing' });
    expect(fake.requests.find((r) => r.path === '/v1/payouts')).toMatchObject({
      authorized: true,
      idempotencyKey: `kamai-withdrawal-${id}`,
    });

    const page = await phonePage(browser);
    await page.goto(`${server.url}/index/home`);
    await page.evaluate((value) => localStorage.setItem('kamai.token', value), token);
    await page.goto(`${server.url}/List4`);
    const row = page.getByRole('article', { name: `Withdrawal #${id} of ₹200.00` });
    await expect.poll(() => row.getByText('Processing').count()).toBe(1);

    // RazorpayX processes it and sends the signed webhook over HTTP.
    const answer = await fake.deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '431212345678' }));
    expect(answer.status).toBe(200);
    await page.reload();
    await expect.poll(() => row.getByText('Payment successful').count()).toBe(1);
    await expect.poll(() => row.getByText('Bank reference: 431212345678').count()).toBe(1);

    // A contradicting webhook (failed after processed) changes nothing for the user and waits in the console.
    expect((await fake.deliver('payout.failed', fake.settle(payout.id, 'failed'))).status).toBe(200);
    await page.reload();
    await expect.poll(() => row.getByText('Payment successful').count()).toBe(1);
    const consolePage = await browser.newPage();
    await consolePage.goto(`${server.url}/admin/`);
    await consolePage.evaluate((value) => localStorage.setItem('kamai.admin.token', value), adminToken);
    await consolePage.goto(`${server.url}/admin/#/payout-mismatches`);
    // Only the hash changed: load the document again so the console starts with the token.
    await consolePage.reload();
    const mismatch = consolePage.getByRole('row').filter({ hasText: `#${id}` });
    await expect.poll(() => mismatch.getByText('failed', { exact: true }).count()).toBe(1);
    await expect.poll(() => mismatch.getByRole('button', { name: 'Dismiss' }).count()).toBe(1);
    await consolePage.close();
    await page.context().close();
  });
});
