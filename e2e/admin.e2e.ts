import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiRegister, controlled, phonePage } from './browser';
import { baseUrl, firstAdmin } from './env';

const DESKTOP = { width: 1280, height: 800 };
const base = baseUrl;

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(method: 'GET' | 'POST', path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base()}/go_user/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

async function adminToken(): Promise<string> {
  const { username, password } = firstAdmin();
  return (await api<{ token: string }>('POST', '/common/user/login', null, { username, password })).token;
}

async function desktopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

/** Logs in through the console's form. */
async function consoleLogin(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${base()}/admin/`);
  await page.getByLabel('Phone number or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

interface Withdrawal {
  id: number;
  state: string;
  reason: string | null;
}

test.describe('operator console at 1280×800', () => {
  test('reviews two withdrawals: approves one, rejects one with a reason; the user and the audit log see both', async ({
    browser,
  }) => {
    const admin = await adminToken();
    const user = await apiRegister(base());
    const me = await api<{ id: number }>('GET', '/user/user/detail', user.token);
    await api('POST', '/admin/revenue/add', admin, { userId: me.id, amount: '500', remark: 'e2e credit' });
    await api('POST', '/user/wdaccount/bind', user.token, {
      accountType: 'upi',
      accountNo: 'console.e2e@okaxis',
      accountName: 'Console Tester',
    });
    const first = await api<{ id: number }>('POST', '/user/withdraw/add', user.token, { amount: '150' });
    const second = await api<{ id: number }>('POST', '/user/withdraw/add', user.token, { amount: '120' });

    const page = await desktopPage(browser);
    await consoleLogin(page, firstAdmin().username, firstAdmin().password);
    await page.getByRole('menuitem', { name: 'Withdrawal review' }).click();
    await page.getByLabel('User ID').fill(String(me.id));

    const firstRow = page.locator(`tr[data-row-key="${first.id}"]`);
    await firstRow.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Approve' }).click();
    await expect(firstRow).toHaveCount(0, { timeout: 10_000 });

    const secondRow = page.locator(`tr[data-row-key="${second.id}"]`);
    await secondRow.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog');
    // A rejection without a reason is refused on the page.
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(dialog.getByText('Enter the reason for the rejection').first()).toBeVisible();
    // A translated preset and/or a note the user reads as written: here the note alone.
    await dialog.getByLabel('Note (optional)').fill('Account name does not match');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(secondRow).toHaveCount(0, { timeout: 10_000 });

    // The user's withdrawal list (/List4's API) shows both outcomes.
    const mine = async () => (await api<{ items: Withdrawal[] }>('GET', '/user/withdraw/list', user.token)).items;
    await expect
      .poll(async () => (await mine()).find((w) => w.id === first.id)?.state, { timeout: 15_000 })
      .toMatch(/^(approved|processing|paid)$/);
    const rejected = (await mine()).find((w) => w.id === second.id);
    expect(rejected).toMatchObject({ state: 'rejected', reason: 'Account name does not match' });

    await page.getByRole('menuitem', { name: 'Audit log' }).click();
    const approveRow = page
      .locator('tr')
      .filter({ hasText: 'withdrawal.approve' })
      .filter({ hasText: String(first.id) });
    const rejectRow = page
      .locator('tr')
      .filter({ hasText: 'withdrawal.reject' })
      .filter({ hasText: String(second.id) });
    await expect(approveRow.first()).toBeVisible();
    await expect(rejectRow.first()).toBeVisible();
    await page.context().close();
  });

  test('creates a task with English and Hindi titles that a user sees on Home in both languages', async ({
    browser,
  }) => {
    const page = await desktopPage(browser);
    await consoleLogin(page, firstAdmin().username, firstAdmin().password);
    await page.getByRole('menuitem', { name: 'Tasks' }).click();
    await page.getByRole('button', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog');
    const english = `Follow us ${Date.now() % 100000}`;
    const hindi = `हमें फ़ॉलो करें ${Date.now() % 100000}`;
    await dialog.getByLabel('Title — English').fill(english);
    // Translations sit in one tab per language. The dialog may still be zooming in when the English
    // field is filled: a click that lands while it moves does not select the tab, so click until the
    // tab is selected, as a person would.
    const hindiTab = dialog.getByRole('tab', { name: /^हिन्दी/ });
    await expect(async () => {
      await hindiTab.click();
      await expect(hindiTab).toHaveAttribute('aria-selected', 'true', { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await dialog.getByLabel('Title — हिन्दी').fill(hindi);
    await dialog.getByLabel('Reward (₹)').fill('7');
    // Every task says how it is verified (docs/decisions/task-verification.md): saving without it is refused on the
    // form.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText('Choose how the task is verified').count()).toBe(1);
    // The options list may still be opening when clicked: choose until the select shows the choice.
    await expect(async () => {
      await dialog.getByLabel('Verification').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Proof (an operator approves)' }).click();
      await expect(dialog.getByText('Choose how the task is verified')).toHaveCount(0, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Saved on the server (the table may page it out of view: system tasks sort first).
    const token = await adminToken();
    await expect
      .poll(async () => {
        const list = await api<{ items: { titles: { en_US?: string; hi_IN?: string } }[] }>(
          'GET',
          '/admin/task/list',
          token,
        );
        return list.items.filter((task) => task.titles.en_US === english && task.titles.hi_IN === hindi).length;
      })
      .toBe(1);
    await page.context().close();

    const user = await apiRegister(base());
    const phone = await phonePage(browser);
    await phone.goto(`${base()}/index/home`);
    await phone.evaluate((value) => localStorage.setItem('kamai.token', value), user.token);
    await phone.goto(`${base()}/index/home`);
    await expect(phone.getByText(english).first()).toBeVisible({ timeout: 15_000 });
    await phone.getByRole('button', { name: /language/i }).click();
    await phone.getByText('हिन्दी').click();
    await expect(phone.getByText(hindi).first()).toBeVisible({ timeout: 15_000 });
    await phone.context().close();

    // The shared server's other tests claim the first task on Home: remove this one again.
    const admin = await adminToken();
    const tasks = await api<{ items: { id: number; titles: { en_US?: string } }[] }>('GET', '/admin/task/list', admin);
    const created = tasks.items.find((task) => task.titles.en_US === english);
    expect(created).toBeDefined();
    await api('POST', '/admin/task/delete', admin, { id: created?.id });
  });

  test('lets a reviewer review withdrawals and read, refuses an admin page in words, and audits the review', async ({
    browser,
  }) => {
    const admin = await adminToken();
    const reviewer = await apiRegister(base());
    const reviewerId = (await api<{ id: number }>('GET', '/user/user/detail', reviewer.token)).id;
    await controlled('/go_user/api/v1/admin/user/role', { userId: reviewerId, role: 'reviewer' }, admin);
    const user = await apiRegister(base());
    const userId = (await api<{ id: number }>('GET', '/user/user/detail', user.token)).id;
    await api('POST', '/admin/revenue/add', admin, { userId, amount: '300', remark: 'e2e credit' });
    await api('POST', '/user/wdaccount/bind', user.token, {
      accountType: 'upi',
      accountNo: 'reviewer.e2e@okaxis',
      accountName: 'Review Tester',
    });
    const pending = await api<{ id: number }>('POST', '/user/withdraw/add', user.token, { amount: '130' });

    const page = await desktopPage(browser);
    await consoleLogin(page, reviewer.username, reviewer.password);
    await expect(page.getByTestId('operator')).toHaveText(reviewer.username);
    // The review queue and the read-only pages; nothing only admins may open.
    // A queue's row ends with what waits on it (a count, blank while none is known).
    const rows = [
      'Dashboard',
      'Withdrawal review',
      'Payout mismatches',
      'Unclaimed money',
      'Ledger check',
      'Account checks',
      'Complaints',
      'Users',
      'Pending changes',
      'Tasks',
      'Task proofs',
      'Settings',
      'Audit log',
    ];
    await expect(page.getByRole('menuitem')).toHaveText(rows.map((name) => new RegExp(`^${name}\\s*\\d*\\s*$`)));

    // A deep link to the queue filtered to one user: the filters show what the link asked for.
    await page.goto(`${base()}/admin/#/withdrawals?state=pending&userId=${userId}`);
    await expect(page.getByRole('menuitem', { name: 'Withdrawal review' })).toHaveClass(/ant-menu-item-selected/);
    await expect(page.getByLabel('User ID')).toHaveValue(String(userId));
    const row = page.locator(`tr[data-row-key="${pending.id}"]`);
    await expect(page.locator('tr.ant-table-row')).toHaveCount(1);
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Approve' }).click();
    await expect(row).toHaveCount(0, { timeout: 10_000 });
    const mine = async () => (await api<{ items: Withdrawal[] }>('GET', '/user/withdraw/list', user.token)).items;
    await expect
      .poll(async () => (await mine()).find((w) => w.id === pending.id)?.state, { timeout: 15_000 })
      .toMatch(/^(approved|processing|paid)$/);

    // Settings are shown but not editable.
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page.getByLabel('Hourly rate')).toHaveCount(1);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);

    // An admin-only page opened by its link: refused in words, the console still works.
    await page.goto(`${base()}/admin/#/outbox`);
    await expect(page.getByText('This page is not open to your role')).toHaveCount(1);
    await expect(page.getByText('Your role is Reviewer. Ask an admin if you need it.')).toHaveCount(1);
    await page.getByRole('button', { name: 'Dashboard' }).click();
    await expect(page.getByText('Ledger check').first()).toBeVisible();
    await page.context().close();

    const audit = await desktopPage(browser);
    await consoleLogin(audit, firstAdmin().username, firstAdmin().password);
    await audit.getByRole('menuitem', { name: 'Audit log' }).click();
    await audit.getByLabel('Operator ID').fill(String(reviewerId));
    const reviewRow = audit
      .locator('tr')
      .filter({ hasText: 'withdrawal.approve' })
      .filter({ hasText: `${reviewer.username} #${reviewerId}` })
      .filter({ hasText: `withdrawal:${pending.id}` });
    await expect(reviewRow).toHaveCount(1);
    await audit.context().close();
  });

  test('refuses a user who is not staff, with a clear message', async ({ browser }) => {
    const user = await apiRegister(base());
    const page = await desktopPage(browser);
    await consoleLogin(page, user.username, user.password);
    await expect(page.getByRole('alert').filter({ hasText: 'This account has no access to the console' })).toHaveCount(
      1,
    );
    expect(await page.evaluate(() => localStorage.getItem('kamai.admin.token'))).toBeNull();
    await expect(page.getByRole('menuitem')).toHaveCount(0);
    await page.context().close();
  });
});
