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
    // Typed as on a landline, with the trunk 0 and a space.
    await form.getByLabel('Mobile number').fill(`0${phone.slice(0, 5)} ${phone.slice(5)}`);
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
    const login = page.getByRole('dialog').filter({ has: page.getByLabel('Mobile number') });
    await login.waitFor();
    await login.getByLabel('Mobile number').fill(phone);
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

  test('shows a form error once, under its field; an answer for no field as a toast', async ({ browser }) => {
    const page = await phonePage(browser);
    await page.goto(`${base()}/index/user`);
    const form = await dialog(page);
    await page.getByRole('button', { name: 'Confirm' }).click();
    // Under the field only, not again in a toast covering it.
    await expect.poll(() => form.getByText('Enter phone or email').count()).toBe(1);
    expect(await page.locator('.adm-toast-main').count()).toBe(0);
    await form.getByLabel('Mobile number').fill('98765 00000');
    await form.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.adm-toast-main').first().waitFor();
    // Wraps at word boundaries (never `break-all`) on an opaque background.
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
    const phone = form.getByLabel('Mobile number');
    expect(await phone.getAttribute('type')).toBe('tel');
    expect(await phone.getAttribute('inputmode')).toBe('numeric');
    await phone.fill('98100');
    await phone.blur();
    // The phone's problem is said under the phone field, in words about a phone.
    const phoneField = form.locator('.text-field').filter({ has: page.getByLabel('Mobile number') });
    await expect.poll(() => phoneField.getByText('Enter a 10-digit mobile number, e.g. 98765 43210').count()).toBe(1);
    // As a field error (red, aria-invalid), not a grey hint.
    await expect(phoneField.locator('.text-field-error')).toHaveText(
      'Enter a 10-digit mobile number, e.g. 98765 43210',
    );
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await expect.poll(() => page.locator('.adm-toast-main').count()).toBe(0);
    // Put right, the error goes at once; left bad again, submitting says it under the phone field again.
    await phone.fill('98100 12345');
    await expect(phoneField.locator('.text-field-error')).toHaveCount(0);
    await phone.fill('98100');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(phoneField.locator('.text-field-error')).toHaveText(
      'Enter a 10-digit mobile number, e.g. 98765 43210',
    );
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
    ['/List4', 'Withdrawal records'],
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
