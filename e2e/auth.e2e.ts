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
    await page.getByRole('button', { name: 'Log out now' }).click();
    // The confirmation may still be closing while the login dialog opens.
    const login = page.getByRole('dialog').filter({ has: page.getByLabel('Phone number or e-mail') });
    await login.waitFor();
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
    // Issue 15 item 6: wraps at word boundaries (never `break-all`) on an opaque background.
    const style = await page
      .locator('.adm-toast-main')
      .first()
      .evaluate((el) => {
        const css = getComputedStyle(el);
        return { wordBreak: css.wordBreak, overflowWrap: css.overflowWrap, background: css.backgroundColor };
      });
    expect(style.wordBreak).toBe('normal');
    expect(style.overflowWrap).toBe('break-word');
    expect(style.background).toMatch(/^rgb\(/);
    await page.context().close();
  });

  test('register explains a disabled Send code, requires the invite code and confirmation, reveals passwords', async ({
    browser,
  }) => {
    const page = await phonePage(browser);
    await page.goto(`${base()}/index/user`);
    const form = await dialog(page);
    await form.getByRole('tab', { name: 'Register' }).click();
    await expect.poll(() => form.getByText('Enter your phone number or e-mail above to get a code').count()).toBe(1);
    await form.getByLabel('Phone number or e-mail').fill('98100');
    await expect
      .poll(() => form.getByText('Target must be an email or phone number, current format invalid').count())
      .toBe(1);
    expect(await form.getByRole('button', { name: 'Send code' }).isDisabled()).toBe(true);

    const password = form.getByLabel('Password', { exact: true });
    await password.fill('secret123');
    expect(await password.getAttribute('type')).toBe('password');
    await form.getByRole('button', { name: 'Show password' }).first().click();
    expect(await password.getAttribute('type')).toBe('text');
    await form.getByRole('button', { name: 'Hide password' }).first().click();
    expect(await password.getAttribute('type')).toBe('password');

    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => form.getByText('Confirm your password').count()).toBeGreaterThan(0);
    await expect.poll(() => form.getByText('Enter invite code').count()).toBeGreaterThan(0);
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
