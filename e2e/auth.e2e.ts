import { expect, type Page, test } from '@playwright/test';
import { codeFromLog, phonePage, uniquePhone } from './browser';
import { baseUrl, firstAdmin } from './env';

const base = baseUrl;

async function dialog(page: Page) {
  const found = page.getByRole('dialog');
  await found.waitFor();
  return found;
}

test.describe('accounts in the browser at 390×844', () => {
  test('registers with a code from the server log, logs out, logs in, changes password', async ({ browser }) => {
    const page = await phonePage(browser);
    await page.goto(`${base()}/index/user`);
    const form = await dialog(page);
    await form.getByRole('tab', { name: 'Register' }).click();

    const phone = uniquePhone();
    const sendCode = form.getByRole('button', { name: 'Send code' });
    expect(await sendCode.isDisabled()).toBe(true);
    await form.getByLabel('Phone number or e-mail').fill(phone);
    await expect(sendCode).toBeEnabled();
    await sendCode.click();
    await expect(form.getByRole('button', { name: /Resend in \d+ s/ })).toHaveCount(1);

    await form.getByLabel('Verification code').fill(await codeFromLog(`91${phone}`));
    await form.getByLabel('Password', { exact: true }).fill('secret123');
    await form.getByLabel('Confirm password').fill('secret123');
    await form.getByLabel('Invite code').fill(firstAdmin().inviteCode);
    await page.getByRole('button', { name: 'Confirm' }).click();

    // Logged in at once: the profile shows the account.
    await expect(page.getByText(`91${phone}`).first()).toBeVisible();
    await expect(page.getByText('Registration successful').first()).toBeVisible();

    await page.getByRole('button', { name: 'Log out' }).click();
    const login = await dialog(page);
    await login.getByLabel('Phone number or e-mail').fill(phone);
    await login.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText(`91${phone}`).first()).toBeVisible();

    await page.getByText('Change Password').click();
    const change = await dialog(page);
    await change.getByLabel('Current password').fill('secret123');
    await change.getByLabel('New password', { exact: true }).fill('secret456');
    await change.getByLabel('Confirm new password').fill('secret456');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Password changed').first()).toBeVisible();
    await page.context().close();
  });

  test('shows the first validation error as a warning toast', async ({ browser }) => {
    const page = await phonePage(browser);
    await page.goto(`${base()}/index/user`);
    await dialog(page);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Enter phone or email').first()).toBeVisible();
    await page.context().close();
  });

  test('keeps Hindi after a reload', async ({ browser }) => {
    const page = await phonePage(browser);
    await page.goto(`${base()}/index/home`);
    await page.getByRole('button', { name: /language/i }).click();
    await page.getByText('हिन्दी').click();
    await expect(page.locator('html')).toHaveAttribute('lang', /^hi/);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', /^hi/);
    await expect(page.getByText('होम').first()).toBeVisible();
    await page.context().close();
  });
});

test.describe('every route of the spec renders its title', () => {
  const titles: [string, string][] = [
    ['/List1', 'System notices'],
    ['/List2', 'Income records'],
    ['/List3', 'Invite list'],
    ['/List4', 'Review list'],
    ['/List5', 'Online accounts'],
    ['/List6', 'Payout methods'],
    ['/Que1', 'Survey'],
    ['/Intro1', 'Platform introduction'],
  ];

  test('redirects / to /index/home', async ({ browser }) => {
    const page = await phonePage(browser);
    await page.goto(`${base()}/`);
    await expect(page).toHaveURL(`${base()}/index/home`);
    await page.context().close();
  });

  for (const [path, title] of titles) {
    test(`${path} → ${title}`, async ({ browser }) => {
      const page = await phonePage(browser);
      await page.goto(`${base()}/index/home`);
      await page.evaluate((token) => localStorage.setItem('kamai.token', token), await loginToken());
      await page.goto(`${base()}${path}`);
      await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
      await page.context().close();
    });
  }
});

let token: string | undefined;
async function loginToken(): Promise<string> {
  if (token) return token;
  const { apiRegister } = await import('./browser');
  token = (await apiRegister(base())).token;
  return token;
}
