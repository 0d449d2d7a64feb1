import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiRegister, launch, PHONE, uniquePhone } from './browser';

let browser: Browser;
let adminToken = '';
const base = () => inject('baseUrl');
const ADMIN = '/go_user/api/v1/admin';

async function api<T>(method: string, path: string, body: unknown, token: string): Promise<T> {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}
const admin = <T>(path: string, body: unknown) => api<T>('POST', `${ADMIN}${path}`, body, adminToken);

beforeAll(async () => {
  browser = await launch();
  const { username, password } = inject('admin');
  const login = await fetch(`${base()}/go_user/api/v1/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  adminToken = ((await login.json()) as { data: { token: string } }).data.token;
});
afterAll(async () => {
  await browser?.close();
});

/** A phone-sized page logged in as the holder of `token`, allowed to use the clipboard. */
async function loggedInPage(token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  const page = await context.newPage();
  await page.goto(`${base()}/index/home`);
  await page.evaluate((value) => localStorage.setItem('kamai.token', value), token);
  return page;
}

const toast = (page: Page, text: string | RegExp) => page.locator('.adm-toast-main').filter({ hasText: text });

describe('linked messaging accounts in the browser at 390×844', () => {
  it('links a number by code, shows it Online, settles it, and lists the income', async () => {
    const user = await apiRegister(base());
    // The default ₹2.00 an hour pays one paisa per 18 s online; ₹3,600 an hour pays ₹1 a second, so a
    // few seconds online make a visible settlement. Operators set the rate through the admin API.
    await admin('/ws/rate/set', { hourlyRate: '3600' });
    try {
      const page = await loggedInPage(user.token);
      await page.goto(`${base()}/index/add`);
      const code = page.getByLabel('Verification code', { exact: true });
      await expect.poll(() => code.textContent()).toBe('**** ****');

      const digits = uniquePhone();
      await page.getByLabel('Messaging number').fill(digits);
      await page.getByRole('button', { name: 'Get code' }).click();
      await expect.poll(() => code.textContent()).toMatch(/^[A-HJ-NP-Z2-9]{4} [A-HJ-NP-Z2-9]{4}$/);
      const shown = ((await code.textContent()) ?? '').replace(' ', '');
      // The button counts down the 10 s before another code may be asked for.
      await expect.poll(() => page.getByRole('button', { name: /^Again in \d+ s$/ }).count()).toBe(1);
      await expect.poll(() => page.getByText(/Waiting for you to enter the code/).count()).toBe(1);

      await page.getByRole('button', { name: 'Copy code' }).click();
      await expect.poll(() => toast(page, 'Copied').count()).toBe(1);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

      // The sandbox provider's pairing is completed by an operator, as the phone would.
      await admin('/ws/complete', { phone: digits, code: shown });
      await expect.poll(() => page.getByText('Binding successful').count(), { timeout: 10_000 }).toBe(1);
      await page.getByRole('button', { name: 'View online accounts' }).click();
      await page.waitForURL(/\/List5$/);

      const card = page.getByRole('article', { name: `+91 ${digits.slice(0, 5)} ${digits.slice(5)}` });
      await expect.poll(() => card.getByText('Online', { exact: true }).count()).toBe(1);
      await expect.poll(() => card.getByText('₹0.00', { exact: true }).count()).toBe(1);
      await page.waitForTimeout(2500);
      await card.getByRole('button', { name: 'Settle' }).click();
      await expect.poll(() => toast(page, /^Settlement complete: \+₹[\d,]+\.\d\d credited$/).count()).toBe(1);
      const amount = /₹[\d,]+\.\d\d/.exec((await toast(page, 'Settlement complete').textContent()) ?? '')?.[0];
      expect(Number(amount?.slice(1).replaceAll(',', ''))).toBeGreaterThanOrEqual(2);
      await expect.poll(() => card.getByText(amount ?? '-', { exact: true }).count()).toBe(1);
      // Settled this hour: the button waits for the next interval.
      await expect.poll(() => card.getByRole('button', { name: 'Settle' }).isDisabled()).toBe(true);
      await expect.poll(() => card.getByText(/^Next settlement after /).count()).toBe(1);

      await card.getByRole('button', { name: 'Show log' }).click();
      const log = card.getByRole('list', { name: /^Log of / });
      await expect.poll(() => log.getByRole('listitem').count()).toBe(2);
      await expect.poll(() => log.getByText('Settled').count()).toBe(1);
      await expect.poll(() => log.getByText('with a verification code').count()).toBe(1);

      await page.goto(`${base()}/List2`);
      await expect.poll(() => page.getByText('Online account income', { exact: true }).count()).toBe(1);
      await expect.poll(() => page.getByText(`+${amount}`).count()).toBe(1);
      await page.context().close();
    } finally {
      await admin('/ws/rate/set', { hourlyRate: '2' });
    }
  });

  it('re-binds a number through the dialog with a 10 s countdown, and logs it out after confirming', async () => {
    const user = await apiRegister(base());
    const digits = uniquePhone();
    // Linked by QR in the set-up, so no code for this number is younger than the 10 s between codes.
    const qr = await api<{ id: string }>('POST', '/obj/ws/account/login/getQRCode', undefined, user.token);
    await admin('/ws/complete', { phone: digits, qrId: qr.id });
    const page = await loggedInPage(user.token);
    await page.goto(`${base()}/List5`);
    const card = page.getByRole('article', { name: `+91 ${digits.slice(0, 5)} ${digits.slice(5)}` });
    await card.getByRole('button', { name: 'Re-bind' }).click();

    const dialog = page.getByRole('dialog', { name: 'Re-bind' });
    await expect.poll(() => dialog.getByLabel('Messaging number').inputValue()).toBe(digits);
    // Confirm before any code: the dialog says what to do first.
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => toast(page, 'Get a code and type it').count()).toBe(1);

    await dialog.getByRole('button', { name: 'Get code' }).click();
    // The set-up's pairing is seconds old: the server asks to wait, and the button counts that down.
    await expect.poll(() => toast(page, /^Please wait \d+ s before requesting another code$/).count()).toBe(1);
    await expect.poll(() => dialog.getByRole('button', { name: /^Again in \d+ s$/ }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Get code' }).click({ timeout: 15_000 });
    const code = dialog.getByLabel('Verification code', { exact: true });
    await expect.poll(() => code.textContent()).toMatch(/^[A-HJ-NP-Z2-9]{4} [A-HJ-NP-Z2-9]{4}$/);
    await expect.poll(() => dialog.getByRole('button', { name: /^Again in (10|9) s$/ }).count()).toBe(1);
    await expect.poll(() => dialog.getByText('Rebinding').count()).toBe(1);

    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => toast(page, 'Rebinding').count()).toBe(1);
    await expect.poll(() => card.getByText('Rebinding').count()).toBe(1);
    await admin('/ws/complete', { phone: digits });
    // The list watches the waiting re-bind and reports its outcome.
    await expect.poll(() => toast(page, 'Binding successful').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => card.getByText('Rebinding').count()).toBe(0);

    await card.getByRole('button', { name: 'Log out' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'stops earning' });
    await confirm.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => card.getByText('To Login', { exact: true }).count()).toBe(1);
    await expect.poll(() => card.getByRole('button', { name: 'Log out' }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it('links by QR code: the page renders the QR and reports the binding', async () => {
    const user = await apiRegister(base());
    const page = await loggedInPage(user.token);
    const qr = page.waitForResponse((r) => r.url().endsWith('/obj/ws/account/login/getQRCode'));
    await page.goto(`${base()}/index/add`);
    await page.getByRole('tab', { name: 'QR code' }).click();
    const { data } = (await (await qr).json()) as { data: { id: string } };
    await expect.poll(() => page.getByRole('img', { name: 'QR code to scan with the messaging app' }).count()).toBe(1);
    await expect.poll(() => page.getByText(/^Expires in \d+ s$/).count()).toBe(1);

    const digits = uniquePhone();
    await admin('/ws/complete', { phone: digits, qrId: data.id });
    await expect.poll(() => page.getByText('Binding successful').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByText(`+91 ${digits.slice(0, 5)} ${digits.slice(5)} is linked`).count()).toBe(1);
    await page.context().close();
  });
});

describe('system notices in the browser at 390×844', () => {
  it('shows a new notice as unread on Profile and in /List1; opening it marks it read', async () => {
    const user = await apiRegister(base());
    const title = `Maintenance ${Date.now()}`;
    await admin('/notice/add', {
      title,
      body: 'The app will be unavailable on Sunday from 02:00 to 03:00.\nThank you for your patience.',
      published: true,
    });
    const page = await loggedInPage(user.token);
    await page.goto(`${base()}/index/user`);
    const entry = page.getByRole('link', { name: /System Notifications/ });
    await expect.poll(() => entry.getByRole('status', { name: '1 unread' }).count()).toBe(1);
    await entry.click();
    await page.waitForURL(/\/List1$/);

    const row = page.getByRole('link', { name: new RegExp(title) });
    await expect.poll(() => row.getByRole('img', { name: 'Unread' }).count()).toBe(1);
    await row.click();
    await expect.poll(() => page.getByRole('heading', { name: title }).count()).toBe(1);
    await expect.poll(() => page.getByText(/unavailable on Sunday/).count()).toBe(1);

    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getByRole('img', { name: 'Unread' }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole('img', { name: 'Unread' }).count()).toBe(0);
    await page.goto(`${base()}/index/user`);
    await expect.poll(() => page.getByText('System Notifications').count()).toBe(1);
    expect(await page.getByRole('status', { name: /unread$/ }).count()).toBe(0);
    await page.context().close();
  });
});
