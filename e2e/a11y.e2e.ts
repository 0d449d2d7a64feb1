import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locale } from '@kamai/contract';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister, PHONE } from './browser';
import { baseUrl, firstAdmin } from './env';

/**
 * WCAG 2.2 AA as axe-core checks it: every page of the app and of the console, in English and Hindi,
 * with no serious or critical violation. The app is checked at a phone's width, the console at a
 * phone's and a desktop's. A violation is reported with its rule, the page and the first nodes it hit.
 */
const base = baseUrl;
const API = '/go_user/api/v1';
const LANGUAGES: Locale[] = ['en_US', 'hi_IN'];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The app's pages (web/src/config/paths.ts), each with what shows once it has loaded. */
const APP_PAGES: [string, string][] = [
  ['/index/home', '.task-card, .home-welcome, main'],
  ['/index/add', 'main'],
  ['/index/user', '.profile-name'],
  ['/List1', 'main'],
  ['/List2', 'main'],
  ['/List3', 'main'],
  ['/List4', 'main'],
  ['/List5', 'main'],
  ['/List6', 'main'],
  ['/Que1', 'main'],
  ['/Intro1', 'main'],
  ['/Help', '.info-title'],
  ['/Terms', '.info-title'],
  ['/Privacy', '.info-title'],
];

/** The console's pages, read from its one page table (admin/src/app/pages.tsx), so a new page is checked too. */
const CONSOLE_PAGES = [
  ...readFileSync(new URL('../admin/src/app/pages.tsx', import.meta.url), 'utf8').matchAll(/^\s+path: '([a-z-]+)',$/gm),
].map((m) => m[1] as string);

let userToken = '';
let adminToken = '';

async function seed() {
  const { username, password } = firstAdmin();
  adminToken = (await apiCall<{ token: string }>('POST', `${API}/common/user/login`, { username, password }, '')).token;
  const user = await apiRegister(base());
  userToken = user.token;
  const me = await apiCall<{ id: number }>('GET', `${API}/user/user/detail`, undefined, userToken);
  await apiCall(
    'POST',
    `${API}/admin/revenue/add`,
    { userId: me.id, amount: '500', remark: 'Welcome bonus' },
    adminToken,
  );
  await apiCall(
    'POST',
    `${API}/user/wdaccount/bind`,
    { accountNo: 'ravi.kumar@okaxis', accountName: 'Ravi Kumar' },
    userToken,
  );
  await apiCall('POST', `${API}/user/withdraw/add`, { amount: '120' }, userToken);
  await apiCall(
    'POST',
    `${API}/admin/notice/add`,
    { title: 'Maintenance on Sunday night', body: 'Your balance and tasks are safe.', published: true },
    adminToken,
  );
}

async function serious(page: Page, where: string): Promise<string[]> {
  await page.evaluate(() => document.fonts.ready);
  // antd's and antd-mobile's enter animations fade from transparent: let them end before colours are read.
  await page.waitForTimeout(400);
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}, ${v.nodes.length} nodes) ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

async function appSweep(browser: Browser, locale: Locale) {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const found: string[] = [];
  await page.goto(`${base()}/index/home`);
  await page.evaluate((lang) => localStorage.setItem('kamai.locale', lang), locale);
  await page.goto(`${base()}/index/user`);
  await page.getByRole('dialog').locator('input').first().waitFor();
  found.push(...(await serious(page, `${locale} app login`)));
  await page.evaluate((token) => localStorage.setItem('kamai.token', token), userToken);
  for (const [path, ready] of APP_PAGES) {
    await page.goto(`${base()}${path}`);
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState('networkidle');
    found.push(...(await serious(page, `${locale} app ${path}`)));
  }
  await context.close();
  return found;
}

async function consoleSweep(browser: Browser, locale: Locale, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const found: string[] = [];
  const where = `${locale} console ${viewport.width}px`;
  await page.goto(`${base()}/admin/`);
  await page.evaluate((lang) => localStorage.setItem('kamai.admin.locale', lang), locale);
  await page.reload();
  await page.locator('form input').first().waitFor();
  found.push(...(await serious(page, `${where} login`)));
  await page.evaluate((token) => localStorage.setItem('kamai.admin.token', token), adminToken);
  await page.reload();
  for (const path of CONSOLE_PAGES) {
    await page.goto(`${base()}/admin/#/${path}`);
    await page.waitForLoadState('networkidle');
    await page.locator('.ant-layout-content').first().waitFor();
    found.push(...(await serious(page, `${where} #/${path}`)));
  }
  await context.close();
  return found;
}

test.describe('accessibility: axe-core finds no serious or critical violation', () => {
  test.beforeAll(seed);

  for (const locale of LANGUAGES) {
    test(`${locale}: every page of the app at 390 px`, async ({ browser }) => {
      test.setTimeout(240_000);
      expect(await appSweep(browser, locale)).toEqual([]);
    });
    test(`${locale}: every page of the console at 390 px and 1280 px`, async ({ browser }) => {
      test.setTimeout(300_000);
      expect(CONSOLE_PAGES.length).toBeGreaterThan(10);
      const phone = await consoleSweep(browser, locale, PHONE);
      const desk = await consoleSweep(browser, locale, { width: 1280, height: 800 });
      expect([...phone, ...desk]).toEqual([]);
    });
  }
});
