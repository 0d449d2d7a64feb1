import { expect, type Page, test } from '@playwright/test';
import { apiRegister, phonePage } from './browser';
import { baseUrl } from './env';

const base = baseUrl;
const historyLength = (page: Page) => page.evaluate(() => window.history.length);
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name, exact: true });
const back = (page: Page) => page.getByRole('button', { name: 'Back', exact: true });

/** What the screens rely on from the router (docs/decisions/web-router.md), logged in, in English. */
test.describe('the router in the browser at 390×844', () => {
  test('paths, tabs, back arrow, query string and history entries', async ({ browser }) => {
    const { token } = await apiRegister(base());
    const page = await phonePage(browser);
    await page.goto(`${base()}/index/home`);
    await page.evaluate((value) => localStorage.setItem('kamai.token', value), token);

    // Case-insensitive, one trailing slash allowed; opened directly, the back arrow leads to My.
    await page.goto(`${base()}/help/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Help', exact: true })).toBeVisible();
    await back(page).click();
    await expect(page).toHaveURL(`${base()}/index/user`);
    await expect(tab(page, 'My account')).toHaveAttribute('aria-current', 'page');
    await expect(tab(page, 'My account')).toHaveClass('tab-bar-item active');
    await expect(tab(page, 'Home')).not.toHaveAttribute('aria-current');
    await expect(tab(page, 'Home')).toHaveClass('tab-bar-item');

    // A tab to the address in view replaces the entry; another tab pushes one.
    const entries = await historyLength(page);
    await tab(page, 'My account').click();
    await expect(page).toHaveURL(`${base()}/index/user`);
    expect(await historyLength(page)).toBe(entries);
    await tab(page, 'Add').click();
    await expect(page).toHaveURL(`${base()}/index/add`);
    await expect(tab(page, 'Add')).toHaveClass('tab-bar-item active tab-bar-add');
    expect(await historyLength(page)).toBe(entries + 1);

    // The link method is in the query string, replaced in place.
    await page.getByRole('tab', { name: 'QR code' }).click();
    await expect(page).toHaveURL(`${base()}/index/add?method=qr`);
    await page.getByRole('tab', { name: 'Verification code' }).click();
    await expect(page).toHaveURL(`${base()}/index/add`);
    expect(await historyLength(page)).toBe(entries + 1);

    // The browser's back button, then a page opened from My: its back arrow goes back in history.
    await page.goBack();
    await expect(page).toHaveURL(`${base()}/index/user`);
    await page.getByRole('link', { name: 'Payout methods' }).click();
    await expect(page).toHaveURL(`${base()}/List6`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payout methods', exact: true })).toBeVisible();
    await back(page).click();
    await expect(page).toHaveURL(`${base()}/index/user`);
    await page.goForward();
    await expect(page).toHaveURL(`${base()}/List6`);

    // An unknown address: the not-found page, whose button replaces it with Home.
    await page.goto(`${base()}/index/nowhere`);
    await expect(page.getByText('Page not found', { exact: true })).toBeVisible();
    const beforeHome = await historyLength(page);
    await page.getByRole('button', { name: 'Go to Home' }).click();
    await expect(page).toHaveURL(`${base()}/index/home`);
    expect(await historyLength(page)).toBe(beforeHome);
    await page.context().close();
  });
});
