import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister } from './browser';
import { baseUrl, firstAdmin } from './env';

/** The console's review queue on a phone and a laptop, and a notice written in Hindi. */
const base = baseUrl;
const api = <T>(method: string, path: string, token: string | null, body?: unknown) =>
  apiCall<T>(method, `/go_user/api/v1${path}`, body, token);

async function adminToken() {
  const { username, password } = firstAdmin();
  return (await api<{ token: string }>('POST', '/common/user/login', null, { username, password })).token;
}

/** A pending withdrawal whose payout account another user also saved: it carries a risk reason. */
async function riskyWithdrawal(admin: string) {
  const upi = `e2eshared${Date.now()}@okaxis`;
  const first = await apiRegister(base());
  const second = await apiRegister(base());
  for (const user of [first, second]) {
    await api('POST', '/user/wdaccount/bind', user.token, { accountType: 'upi', accountNo: upi, accountName: 'Asha' });
  }
  const userId = (await api<{ id: number }>('GET', '/user/user/detail', second.token)).id;
  await api('POST', '/admin/revenue/add', admin, { userId, amount: '300', remark: 'e2e queue funds' });
  const pending = await api<{ id: number }>('POST', '/user/withdraw/add', second.token, { amount: '150' });
  return { userId, id: pending.id };
}

async function consoleAt(browser: Browser, admin: string, viewport: { width: number; height: number }) {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${base()}/admin/`);
  await page.evaluate((token) => localStorage.setItem('kamai.admin.token', token), admin);
  return page;
}

/** Nothing on the page is wider than the window, and the element lies inside it, whole. */
async function fullyInView(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return 'missing';
    const box = el.getBoundingClientRect();
    const scrollers = [...document.querySelectorAll<HTMLElement>('*')].filter(
      (node) => node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'hidden',
    );
    if (document.documentElement.scrollWidth > window.innerWidth + 1) return 'page scrolls sideways';
    if (scrollers.some((node) => node.contains(el))) return 'inside a sideways scroller';
    if (box.left < 0 || box.right > window.innerWidth + 0.5) return `cut: ${box.left}..${box.right}`;
    // A reason cut with "…" would be wider inside than its box.
    if ((el as HTMLElement).scrollWidth > (el as HTMLElement).clientWidth + 1) return 'text cut';
    return 'ok';
  }, selector);
}

test.describe('the review queue shows the risk reason without scrolling', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width} px`, async ({ browser }) => {
      const admin = await adminToken();
      const { userId, id } = await riskyWithdrawal(admin);
      const page = await consoleAt(browser, admin, viewport);
      await page.goto(`${base()}/admin/#/withdrawals?state=all&userId=${userId}`);
      await page.reload();
      const reason = page.getByText('Payout account also saved by another user').first();
      // A loaded machine renders the console slowly: wait for the row, not for a fixed time.
      await expect(reason).toBeVisible({ timeout: 30_000 });
      await reason.evaluate((node) => node.setAttribute('data-e2e', 'risk-reason'));
      expect(await fullyInView(page, '[data-e2e="risk-reason"]')).toBe('ok');
      // The amount to approve is in view too, and approving names it before anything is sent.
      const approve = page.getByRole('button', { name: 'Approve', exact: true }).first();
      await approve.click();
      await expect(page.getByText(/Approve ₹150\.00 to \+91 \d{5} \d{5}\?/)).toBeVisible();
      await page.getByRole('button', { name: 'Cancel' }).click();
      const still = await api<{ items: { id: number; state: string }[] }>(
        'GET',
        `/admin/withdraw/list?userId=${userId}`,
        admin,
      );
      expect(still.items.find((w) => w.id === id)?.state).toBe('pending');
      if (viewport.width < 768) {
        // On a phone the menu is behind a button and the title stays on one line.
        await expect(page.locator('.shell-sider')).toHaveCount(0);
        const title = page.locator('.shell-title');
        const lineHeight = await title.evaluate((node) => Number.parseFloat(getComputedStyle(node).lineHeight) || 24);
        expect((await title.boundingBox())?.height ?? 0).toBeLessThan(lineHeight * 1.6);
      }
    });
  }
});

test('a notice written in Hindi shows in Hindi and falls back to English in another language', async ({ browser }) => {
  const admin = await adminToken();
  const stamp = Date.now();
  await api('POST', '/admin/notice/add', admin, {
    title: `Payouts resume on Monday ${stamp}`,
    body: 'Withdrawals requested over the weekend are paid on Monday.',
    titles: { hi_IN: `भुगतान सोमवार से फिर शुरू ${stamp}` },
    bodies: { hi_IN: 'सप्ताहांत में माँगी गई निकासी सोमवार को भेजी जाएगी।' },
  });
  const user = await apiRegister(base());
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${base()}/index/home`);
  await page.evaluate((token) => localStorage.setItem('kamai.token', token), user.token);

  await page.evaluate(() => localStorage.setItem('kamai.locale', 'hi_IN'));
  await page.goto(`${base()}/List1`);
  await expect(page.getByText(`भुगतान सोमवार से फिर शुरू ${stamp}`)).toBeVisible();
  await expect(page.getByText(`Payouts resume on Monday ${stamp}`)).toHaveCount(0);

  await page.evaluate(() => localStorage.setItem('kamai.locale', 'gu_IN'));
  await page.goto(`${base()}/List1`);
  await expect(page.getByText(`Payouts resume on Monday ${stamp}`)).toBeVisible();
  await expect(page.getByText(`भुगतान सोमवार से फिर शुरू ${stamp}`)).toHaveCount(0);
});

test('the Punjabi introduction names the countries in Gurmukhi, though Chromium has no Punjabi region names', async ({
  browser,
}) => {
  const user = await apiRegister(base());
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${base()}/index/home`);
  await page.evaluate((token) => {
    localStorage.setItem('kamai.token', token);
    localStorage.setItem('kamai.locale', 'pa_IN');
  }, user.token);
  // A fresh install claims no figures: none shows until an operator sets them.
  await page.goto(`${base()}/Intro1`);
  await expect(page.locator('.intro-text').first()).toBeVisible();
  await expect(page.locator('.intro-facts')).toHaveCount(0);
  const countries = ['IN', 'NP', 'BD', 'AE', 'LK'];
  await api('POST', '/admin/intro/set', await adminToken(), { userCount: 1200, countryCount: 5, countries });
  await page.reload();
  const facts = page.locator('.intro-facts');
  await expect(facts).toContainText('ਭਾਰਤ');
  // Before: "India, Nepal, Bangladesh, United Arab Emirates and Sri Lanka" inside the Punjabi sentence.
  await expect(facts).not.toContainText(/[A-Za-z]/);
  await context.close();
});
