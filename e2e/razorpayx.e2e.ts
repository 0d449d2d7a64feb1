import { displayPhone } from '@kamai/contract';
import { type Browser, expect, test } from '@playwright/test';
import { type RazorpayxFake, startRazorpayxFake } from '../server/test/razorpayx-fake';
import { addAccountValidation } from '../server/test/razorpayx-validation-fake';
import { apiCall, phonePage, uniquePhone } from './browser';
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
test.describe('a withdrawal paid through RazorpayX (local fake)', () => {
  let fake: RazorpayxFake;
  let server: RunningServer;
  let adminToken = '';
  let inviteCode = '';

  const call = <T>(method: string, path: string, body?: unknown, token?: string) =>
    apiCall<T>(method, path, body, token, server.url);

  /** The caller's balance in paise (the API answers rupee strings). */
  const balanceOf = async (token: string) =>
    Math.round(
      Number((await call<{ balance: string }>('GET', '/go_user/api/v1/user/user/detail', undefined, token)).balance) *
        100,
    );

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

  /**
   * A new user credited ₹500 with a withdrawal of `amount` approved and created at the fake, in the
   * server's state `processing` (so webhooks about it are applied); `credited` is the balance before it.
   */
  async function processingPayout(amount: number) {
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
    const credited = await balanceOf(token);
    await call(
      'POST',
      '/go_user/api/v1/user/wdaccount/bind',
      { accountNo: 'meera.s@okhdfc', accountName: 'Meera Shah' },
      token,
    );
    const { id } = await call<{ id: number }>(
      'POST',
      '/go_user/api/v1/user/withdraw/add',
      { amount: String(amount) },
      token,
    );
    await call('POST', '/go_user/api/v1/admin/withdraw/review', { id, action: 'approve' }, adminToken);
    // The server's job worker creates the payout at the fake (basic auth, idempotency key, UPI).
    await expect.poll(() => fake.byWithdrawal(id).length, { timeout: 20_000 }).toBe(1);
    const [payout] = fake.byWithdrawal(id);
    if (!payout) throw new Error('no payout');
    const state = async () =>
      (
        await call<{ items: { id: number; state: string }[] }>(
          'GET',
          '/go_user/api/v1/user/withdraw/list',
          undefined,
          token,
        )
      ).items.find((w) => w.id === id)?.state;
    await expect.poll(state, { timeout: 20_000 }).toBe('processing');
    return { token, userId: me.id, username: `91${phone}`, id, payout, credited };
  }

  /** The console signed in as the first admin, on its payout mismatches page. */
  async function mismatchesConsole(browser: Browser) {
    const page = await browser.newPage();
    await page.goto(`${server.url}/admin/`);
    await page.evaluate((value) => localStorage.setItem('kamai.admin.token', value), adminToken);
    await page.goto(`${server.url}/admin/#/payout-mismatches`);
    // Only the hash changed: load the document again so the console starts with the token.
    await page.reload();
    return page;
  }

  test.beforeAll(async () => {
    fake = await startRazorpayxFake(KEYS);
    // Payout accounts are checked with the bank when bound (account-validation.e2e.ts shows that); here
    // the bank answers at once with the typed name, so payouts are not held for the check.
    addAccountValidation(fake, {
      ...KEYS,
      instant: (fund) => ({
        accountStatus: 'active',
        registeredName: String(
          (fund.bank_account as { name?: string } | undefined)?.name ?? 'KAMAI USER',
        ).toUpperCase(),
      }),
    });
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
  });
  test.afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  test('approve → payout created at RazorpayX → payout.processed webhook → "Payment successful"', async ({
    browser,
  }) => {
    const { token, id, payout } = await processingPayout(200);
    expect(payout).toMatchObject({ amount: 20000, mode: 'UPI', status: 'processing' });
    expect(fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/payouts')).toMatchObject({
      authorized: true,
      // The installation's prefix, the withdrawal's id and a random part (payouts.references.ts).
      idempotencyKey: expect.stringMatching(new RegExp(`^[a-z0-9]{2,10}-${id}-`)),
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
    const consolePage = await mismatchesConsole(browser);
    const mismatch = consolePage.getByRole('row').filter({ hasText: `#${id}` });
    await expect.poll(() => mismatch.getByText('failed', { exact: true }).count()).toBe(1);
    await expect.poll(() => mismatch.getByRole('button', { name: 'Dismiss' }).count()).toBe(1);
    await consolePage.close();
    await page.context().close();
  });

  test('console: a mismatch opens to both callbacks; Dismiss closes one with its reason, Recover takes the amount back once', async ({
    browser,
  }) => {
    // Paid, then reported failed: nothing to take back, so it can only be dismissed.
    const paid = await processingPayout(200);
    await fake.deliver('payout.processed', fake.settle(paid.payout.id, 'processed', { utr: '431200000001' }));
    expect((await fake.deliver('payout.failed', fake.settle(paid.payout.id, 'failed'))).status).toBe(200);
    // Failed (the ₹300 went back to the wallet), then reported processed: recoverable.
    const failed = await processingPayout(300);
    await fake.deliver('payout.failed', fake.settle(failed.payout.id, 'failed'));
    expect(await balanceOf(failed.token)).toBe(failed.credited);
    await fake.deliver('payout.processed', fake.settle(failed.payout.id, 'processed', { utr: '431200000002' }));

    const all = await call<{ items: { id: number; withdrawalId: number }[] }>(
      'GET',
      '/go_user/api/v1/admin/payout/mismatches?limit=100',
      undefined,
      adminToken,
    );
    const mismatchOf = (withdrawalId: number) => {
      const found = all.items.filter((m) => m.withdrawalId === withdrawalId);
      expect(found).toHaveLength(1);
      return found[0]?.id ?? 0;
    };
    const toDismiss = mismatchOf(paid.id);
    const toRecover = mismatchOf(failed.id);

    const page = await mismatchesConsole(browser);
    const dismissRow = page.locator(`tr[data-row-key="${toDismiss}"]`);
    const recoverRow = page.locator(`tr[data-row-key="${toRecover}"]`);
    // The queue writes phone numbers as +91 98765 43210.
    await expect(recoverRow).toContainText(displayPhone(failed.username));
    await expect(recoverRow).toContainText('processed');

    // Opened, the row shows the callback that settled the withdrawal and the one that contradicts it.
    await recoverRow.getByRole('button', { name: 'Expand row' }).click();
    const evidence = page.locator('tr.ant-table-expanded-row').filter({ hasText: 'Contradicting callback' });
    await expect(evidence).toContainText('Callback that settled the withdrawal');
    await expect(evidence).toContainText('failed');
    await expect(evidence).toContainText('431200000002');

    // Dismiss: the reason is required, then the mismatch leaves the open list and no money moves.
    await expect(dismissRow.getByRole('button', { name: 'Recover' })).toBeDisabled();
    await dismissRow.getByRole('button', { name: 'Dismiss' }).click();
    const dismissDialog = page.getByRole('dialog', { name: `Dismiss mismatch #${toDismiss}` });
    await dismissDialog.getByLabel('Reason (kept in the audit log)').fill('RazorpayX dashboard shows it paid');
    await dismissDialog.getByRole('button', { name: 'Dismiss' }).click();
    await expect(dismissDialog).toHaveCount(0);
    await expect(dismissRow).toHaveCount(0);

    // Recover, with an impatient double click: the amount comes back from the wallet once.
    await recoverRow.getByRole('button', { name: 'Recover' }).click();
    const recoverDialog = page.getByRole('dialog', { name: `Recover the amount of mismatch #${toRecover}` });
    await expect(recoverDialog).toContainText(`${failed.username}'s wallet`);
    await recoverDialog.getByLabel('Reason (kept in the audit log)').fill('UTR 431200000002 credited to the payee');
    await recoverDialog.getByRole('button', { name: 'Recover' }).dblclick();
    await expect(recoverDialog).toHaveCount(0);
    await expect(recoverRow).toHaveCount(0);

    // Both are listed as resolved, with their reasons and no actions left.
    await page.getByText('Resolved', { exact: true }).click();
    await expect(dismissRow).toContainText('Dismissed');
    await expect(dismissRow).toContainText('RazorpayX dashboard shows it paid');
    await expect(recoverRow).toContainText('Recovered');
    await expect(recoverRow).toContainText('UTR 431200000002 credited to the payee');
    await expect(recoverRow.getByRole('button', { name: 'Recover' })).toHaveCount(0);
    await expect(dismissRow.getByRole('button', { name: 'Dismiss' })).toHaveCount(0);

    expect(await balanceOf(failed.token)).toBe(failed.credited - 300_00);
    const movements = await call<{ items: { type: string; amount: string; ref: { withdrawalId?: number } }[] }>(
      'GET',
      '/go_user/api/v1/user/balance/list?limit=100',
      undefined,
      failed.token,
    );
    expect(movements.items.filter((m) => m.type === 'payout_recovery')).toEqual([
      expect.objectContaining({ amount: '-300.00', ref: expect.objectContaining({ withdrawalId: failed.id }) }),
    ]);
    // The dismissed one's user keeps what they had after the payout.
    expect(await balanceOf(paid.token)).toBe(paid.credited - 200_00);
    await page.close();
  });
});
