import { LOCALES, type Locale } from '@kamai/contract';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiRegister } from './browser';
import { baseUrl, firstAdmin } from './env';
import { findOverflows, type Overflow } from './overflow';

/**
 * Issue 15 item 7: every field and list title fits or ellipsises from 320 to 430 px wide, in all six
 * languages. Each scene opens a page with inputs or list titles; the check measures placeholders against
 * their inputs' room and titles against their boxes (./overflow.ts).
 */
const base = baseUrl;
const API = '/go_user/api/v1';
const WIDTHS = [320, 430];
let userToken = '';

async function api<T>(method: string, path: string, body: unknown, token: string): Promise<T> {
  const res = await fetch(`${base()}${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.json()) as { code: number; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** Scenes a logged-out visitor sees: the login dialog, its Register tab, the password reset form. */
const LOGGED_OUT: Record<string, (page: Page) => Promise<unknown>> = {
  login: async (page) => {
    await page.goto(`${base()}/index/user`);
    await page.getByRole('dialog').locator('input').first().waitFor();
  },
  register: async (page) => {
    await page.goto(`${base()}/index/user`);
    await page.locator('.auth-tabs [role=tab]').nth(1).click();
    await page.getByRole('dialog').locator('input[name=inviteCode]').waitFor();
  },
  forgot: async (page) => {
    await page.goto(`${base()}/index/user`);
    await page.getByRole('dialog').locator('.link-button').first().click();
    await page.getByRole('dialog').locator('input[name=verifyCode]').waitFor();
  },
};

/** Scenes of a logged-in user with money, a payout method, a long notice and tasks. */
const LOGGED_IN: Record<string, (page: Page) => Promise<unknown>> = {
  tasks: async (page) => {
    await page.goto(`${base()}/index/home`);
    await page.locator('.task-card-title').first().waitFor();
  },
  notices: async (page) => {
    await page.goto(`${base()}/List1`);
    await page.locator('.inbox-row-title').first().waitFor();
  },
  my: async (page) => {
    await page.goto(`${base()}/index/user`);
    await page.locator('.profile-name').first().waitFor();
  },
  withdraw: async (page) => {
    await page.goto(`${base()}/List4`);
    await page.locator('.payout-add-top button').click();
    await page.locator('.form-dialog input[name=amount]').waitFor();
  },
  'payout-upi': async (page) => {
    await page.goto(`${base()}/List6`);
    await page.locator('.payout-add button').click();
    await page.locator('.form-dialog input[name=accountNo]').waitFor();
  },
  'payout-bank': async (page) => {
    await page.goto(`${base()}/List6`);
    await page.locator('.payout-add button').click();
    await page.locator('.segmented-option').nth(1).click();
    await page.locator('.form-dialog input[name=ifsc]').waitFor();
  },
};

async function openPage(browser: Browser, width: number, locale: Locale, token?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${base()}/index/home`);
  await page.evaluate(
    ([lang, value]) => {
      localStorage.setItem('kamai.locale', lang ?? 'en_US');
      if (value) localStorage.setItem('kamai.token', value);
    },
    [locale, token ?? ''],
  );
  return page;
}

async function sweep(browser: Browser, locale: Locale): Promise<string[]> {
  const problems: string[] = [];
  const record = (width: number, scene: string, found: Overflow[]) => {
    for (const o of found)
      problems.push(
        `${locale} ${width}px ${scene}: ${o.kind} ${o.where} "${o.text}" needs ${Math.ceil(o.needed)} px, has ${Math.floor(o.room)}`,
      );
  };
  for (const width of WIDTHS) {
    for (const [scenes, token] of [
      [LOGGED_OUT, undefined],
      [LOGGED_IN, userToken],
    ] as const) {
      const page = await openPage(browser, width, locale, token);
      for (const [scene, open] of Object.entries(scenes)) {
        await open(page);
        await page.evaluate(() => document.fonts.ready);
        record(width, scene, await findOverflows(page));
      }
      await page.context().close();
    }
  }
  return problems;
}

test.describe('texts fit their boxes from 320 to 430 px', () => {
  test.beforeAll(async () => {
    const { username, password } = firstAdmin();
    const admin = (await api<{ token: string }>('POST', '/common/user/login', { username, password }, '')).token;
    const user = await apiRegister(base());
    userToken = user.token;
    const me = await api<{ id: number }>('GET', '/user/user/detail', undefined, userToken);
    await api('POST', '/admin/revenue/add', { userId: me.id, amount: '500', remark: 'e2e funds' }, admin);
    await api('POST', '/user/wdaccount/bind', { accountNo: 'ravi.kumar@okaxis', accountName: 'Ravi Kumar' }, userToken);
    await api(
      'POST',
      '/admin/notice/add',
      {
        title: 'Scheduled maintenance on Sunday night: withdrawals and online accounts will pause for two hours',
        body: 'Your balance and tasks are safe.',
        published: true,
      },
      admin,
    );
  });

  for (const locale of LOCALES) {
    test(`${locale}: login, register, reset, tasks, notices, my, withdraw and payout forms`, async ({ browser }) => {
      test.setTimeout(240_000);
      expect(await sweep(browser, locale)).toEqual([]);
    });
  }
});
