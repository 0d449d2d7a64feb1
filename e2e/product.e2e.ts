import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiRegister, phonePage } from './browser';
import { baseUrl, firstAdmin } from './env';

let browser: Browser;
let adminToken = '';
const base = baseUrl;
const API = '/go_user/api/v1';

async function call(method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; key: string; data: unknown };
}

async function api<T>(method: string, path: string, body: unknown, token: string): Promise<T> {
  const envelope = await call(method, path, body, token);
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data as T;
}

test.beforeAll(async () => {
  const { username, password } = firstAdmin();
  adminToken = (await api<{ token: string }>('POST', `${API}/common/user/login`, { username, password }, '')).token;
});

async function loggedInPage(token: string): Promise<Page> {
  const page = await phonePage(browser);
  await page.goto(`${base()}/index/home`);
  await page.evaluate((value) => localStorage.setItem('kamai.token', value), token);
  return page;
}

const toast = (page: Page, text: string | RegExp) => page.locator('.adm-toast-main').filter({ hasText: text });
const balanceOf = async (token: string) =>
  (await api<{ balance: string }>('GET', `${API}/user/user/detail`, undefined, token)).balance;

/** A registered user with ₹`rupees` more in the wallet and a default UPI account. */
async function fundedUser(rupees: string) {
  const user = await apiRegister(base());
  const me = await api<{ id: number }>('GET', `${API}/user/user/detail`, undefined, user.token);
  await api('POST', `${API}/admin/revenue/add`, { userId: me.id, amount: rupees, remark: 'e2e funds' }, adminToken);
  await api(
    'POST',
    `${API}/user/wdaccount/bind`,
    { accountNo: 'ravi.k@okaxis', accountName: 'Ravi Kumar' },
    user.token,
  );
  return { ...user, id: me.id };
}

test.describe('what a user sees of tasks, withdrawals and account deletion, at 390×844', () => {
  test('Home keeps Hot, Latest and Limited-time with empty states; a limited task counts down to its end', async ({
    browser: fixture,
  }) => {
    browser = fixture;
    // Other files' tasks would fill these sections: they are parked for this test and put back after.
    const { items } = await api<{ items: { id: number; section: string; active: boolean }[] }>(
      'GET',
      `${API}/admin/task/list`,
      undefined,
      adminToken,
    );
    const parked = items.filter((task) => task.active && ['hot', 'latest', 'limited'].includes(task.section));
    const added: number[] = [];
    try {
      for (const task of parked)
        await api('POST', `${API}/admin/task/edit`, { id: task.id, active: false }, adminToken);
      const user = await apiRegister(base());
      const page = await loggedInPage(user.token);
      await page.goto(`${base()}/index/home`);
      const empty = {
        'Hot Activities': 'No hot activities right now. Check back soon.',
        'Latest Activities': 'No new activities yet. New ones appear here first.',
        'Limited-time Reward Task': 'No limited-time reward tasks right now. Check back soon.',
      };
      for (const [name, text] of Object.entries(empty)) {
        await expect(page.getByRole('region', { name }).getByText(text)).toBeVisible();
      }

      const addLimited = async (title: string, seconds: number, verification: object) => {
        const endsAt = new Date(Date.now() + seconds * 1000).toISOString();
        const body = { section: 'limited', reward: '10', titles: { en_US: title }, endsAt, verification };
        added.push((await api<{ id: number }>('POST', `${API}/admin/task/add`, body, adminToken)).id);
      };
      const stamp = Date.now();
      const linkTwo = { kind: 'automatic', condition: { type: 'linked_accounts', count: 2 } };
      await addLimited(`Diwali bonus ${stamp}`, 2 * 86_400 + 3 * 3600 + 15 * 60, linkTwo);
      await addLimited(`Flash task ${stamp}`, 15, { kind: 'proof', proof: 'link' });
      await page.reload();
      const limited = page.getByRole('region', { name: 'Limited-time Reward Task' });
      const ends = limited.getByRole('article', { name: `Diwali bonus ${stamp}` }).locator('.task-card-ends time');
      await expect(ends).toHaveText(/^Ends in 2d 03:1[45]:\d\d$/);
      const before = await ends.textContent();
      await expect.poll(() => ends.textContent()).not.toBe(before);
      await expect(limited.getByText(empty['Limited-time Reward Task'])).toHaveCount(0);
      // Under a day: the clock alone. At its end the task leaves the list (the server no longer lists it).
      const flash = limited.getByRole('article', { name: `Flash task ${stamp}` });
      await expect(flash.locator('.task-card-ends time')).toHaveText(/^Ends in 00:00:[01]\d$/);
      await expect(flash).toHaveCount(0, { timeout: 30_000 });
      // Latin digits and the locale's words in Hindi.
      await page.evaluate(() => localStorage.setItem('kamai.locale', 'hi_IN'));
      await page.reload();
      const hindi = page.getByRole('article', { name: `Diwali bonus ${stamp}` }).locator('.task-card-ends time');
      await expect(hindi).toHaveText(/^2 दिन 03:1[45]:\d\d में समाप्त$/);
      // An operator's "link accounts" task says where to do it: Go opens the Add tab.
      await page.evaluate(() => localStorage.setItem('kamai.locale', 'en_US'));
      await page.reload();
      await page
        .getByRole('article', { name: `Diwali bonus ${stamp}` })
        .getByRole('button', { name: 'Go' })
        .click();
      await page.waitForURL(/\/index\/add$/);
      await page.close();
    } finally {
      for (const id of added) await api('POST', `${API}/admin/task/delete`, { id }, adminToken);
      for (const task of parked) await api('POST', `${API}/admin/task/edit`, { id: task.id, active: true }, adminToken);
    }
  });

  test('cancels a withdrawal under review: the amount is back and the row says Cancelled', async ({
    browser: fixture,
  }) => {
    browser = fixture;
    const user = await fundedUser('300');
    await api('POST', `${API}/user/withdraw/add`, { amount: '200' }, user.token);
    expect(await balanceOf(user.token)).toBe('105.00');
    const page = await loggedInPage(user.token);
    await page.goto(`${base()}/List4`);
    const row = page.locator('.withdrawal-row').first();
    await row.locator('.withdrawal-state').getByText('Under review').waitFor();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Cancel this withdrawal?').waitFor();
    await page.getByRole('button', { name: 'Cancel withdrawal' }).click();
    await expect.poll(() => toast(page, 'Withdrawal cancelled').count()).toBe(1);
    await expect.poll(() => row.locator('.withdrawal-state').getByText('Cancelled').count()).toBe(1);
    expect(await row.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await balanceOf(user.token)).toBe('305.00');
    await page.close();
  });

  test('submits proof for a task, sees Under review, and is credited once the console approves it', async ({
    browser: fixture,
  }) => {
    browser = fixture;
    const title = `Share Kamai on WhatsApp status ${Date.now()}`;
    const { id: taskId } = await api<{ id: number }>(
      'POST',
      `${API}/admin/task/add`,
      { section: 'hot', reward: '15', titles: { en_US: title }, verification: { kind: 'proof', proof: 'link' } },
      adminToken,
    );
    const user = await apiRegister(base());
    const page = await loggedInPage(user.token);
    await page.goto(`${base()}/index/home`);
    const card = page.getByRole('article', { name: title });
    await card.waitFor();
    // No Claim on a proof task: only Submit proof.
    expect(await card.getByRole('button', { name: 'Claim' }).count()).toBe(0);
    await card.getByRole('button', { name: 'Submit proof' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit proof' });
    await dialog.getByLabel('Link (https://…)').fill('https://wa.me/status/12345');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => toast(page, 'Proof submitted').count()).toBe(1);
    await expect.poll(() => card.getByRole('button', { name: 'Under review' }).count()).toBe(1);
    expect(await balanceOf(user.token)).toBe('5.00');

    // The operator approves it in the console.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const consolePage = await context.newPage();
    await consolePage.goto(`${base()}/admin/`);
    const { username, password } = firstAdmin();
    await consolePage.getByLabel('Phone number or e-mail').fill(username);
    await consolePage.getByLabel('Password').fill(password);
    await consolePage.getByRole('button', { name: 'Log in' }).click();
    await consolePage.getByRole('menuitem', { name: 'Task proofs' }).click();
    const proofRow = consolePage.getByRole('row').filter({ hasText: title });
    await proofRow.getByText('https://wa.me/status/12345').waitFor();
    await proofRow.getByRole('button', { name: 'Approve' }).click();
    // Approving pays: the console asks once more, naming the amount.
    await consolePage.locator('.ant-popconfirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => proofRow.count()).toBe(0);
    await context.close();

    await expect.poll(() => balanceOf(user.token)).toBe('20.00');
    await page.reload();
    await expect.poll(() => card.getByRole('button', { name: 'Completed' }).count()).toBe(1);
    const finish = await call('POST', `${API}/user/task/finish`, { taskId }, user.token);
    expect(finish.key).toBe('task_already_claimed');
    await page.close();
  });

  test('deletes the account from My with the password; the session ends', async ({ browser: fixture }) => {
    browser = fixture;
    const user = await apiRegister(base());
    const page = await loggedInPage(user.token);
    await page.goto(`${base()}/index/user`);
    await page.getByRole('link', { name: 'Help' }).waitFor();
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog.getByText(/cannot be undone/).waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill('wrong-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => dialog.getByText('Incorrect password').count()).toBeGreaterThan(0);
    await dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    // The flow ends on a confirmation in the user's language, not on Home with no word.
    await page.waitForURL(/\/Deleted/);
    await page.getByRole('heading', { name: 'Your account has been deleted' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('kamai.token'))).toBeNull();
    const after = await call('GET', `${API}/user/user/detail`, undefined, user.token);
    expect(after.code).toBe(401);
    const login = await call('POST', `${API}/common/user/login`, { username: user.username, password: user.password });
    expect(login.code).not.toBe(200);
    await page.close();
  });
});
