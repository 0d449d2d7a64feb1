import { expect, test } from '@playwright/test';
import { apiCall, apiRegister } from './browser';
import { baseUrl, firstAdmin } from './env';

const DESKTOP = { width: 1280, height: 800 };
const base = baseUrl;

const api = <T>(method: string, path: string, token: string | null, body?: unknown) =>
  apiCall<T>(method, `/go_user/api/v1${path}`, body, token);

test.describe('fraud signals in the review queue', () => {
  test('shows the reviewer, in their language, that a payout account is shared by two users', async ({ browser }) => {
    const { username, password } = firstAdmin();
    const admin = (await api<{ token: string }>('POST', '/common/user/login', null, { username, password })).token;
    const upi = `shared${Date.now()}@okaxis`;
    const first = await apiRegister(base());
    const second = await apiRegister(base());
    for (const user of [first, second]) {
      await api('POST', '/user/wdaccount/bind', user.token, {
        accountType: 'upi',
        accountNo: upi,
        accountName: 'Asha',
      });
    }
    const secondId = (await api<{ id: number }>('GET', '/user/user/detail', second.token)).id;
    await api('POST', '/admin/revenue/add', admin, { userId: secondId, amount: '300', remark: 'e2e fraud funds' });
    const pending = await api<{ id: number }>('POST', '/user/withdraw/add', second.token, { amount: '120' });

    // The console, logged in through the API, on the queue filtered by the reason.
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.goto(`${base()}/admin/`);
    await page.evaluate((token) => localStorage.setItem('kamai.admin.token', token), admin);
    await page.goto(`${base()}/admin/#/withdrawals?state=all&reason=risk_shared_payout_account&userId=${secondId}`);
    // The console reads its session when it starts.
    await page.reload();
    const row = page.locator(`tr[data-row-key="${pending.id}"]`);
    await expect.poll(() => row.getByText('Payout account also saved by another user').count()).toBe(1);
    await expect.poll(() => row.getByLabel(/^Risk \d+$/).textContent()).toMatch(/^\d+$/);
    const score = Number(await row.getByLabel(/^Risk \d+$/).textContent());
    expect(score).toBeGreaterThanOrEqual(40);

    // The reason filter leaves out a request without that reason.
    const other = await apiRegister(base());
    await api('POST', '/user/wdaccount/bind', other.token, {
      accountType: 'upi',
      accountNo: `alone${Date.now()}@okaxis`,
      accountName: 'Ravi',
    });
    const otherId = (await api<{ id: number }>('GET', '/user/user/detail', other.token)).id;
    await api('POST', '/admin/revenue/add', admin, { userId: otherId, amount: '300', remark: 'e2e fraud funds' });
    const calm = await api<{ id: number }>('POST', '/user/withdraw/add', other.token, { amount: '120' });
    await page.goto(`${base()}/admin/#/withdrawals?state=all&reason=risk_shared_payout_account&userId=${otherId}`);
    await expect.poll(() => page.getByText('Nothing here yet').count()).toBe(1);
    expect(await page.locator(`tr[data-row-key="${calm.id}"]`).count()).toBe(0);

    // In Hindi the same reason reads in Hindi.
    await page.evaluate(() => localStorage.setItem('kamai.admin.locale', 'hi_IN'));
    await page.goto(`${base()}/admin/#/withdrawals?state=all&sort=risk&userId=${secondId}`);
    await page.reload();
    await expect
      .poll(() =>
        page.locator(`tr[data-row-key="${pending.id}"]`).getByText('भुगतान खाता किसी दूसरे उपयोगकर्ता ने भी सहेजा है').count(),
      )
      .toBe(1);
  });
});
