import { LOCALES, type Locale } from '@kamai/contract';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister } from './browser';
import { baseUrl, firstAdmin } from './env';
import { findOverflows, type Overflow } from './overflow';

/**
 * Every field and list title fits or ellipsises from 320 to 430 px wide, in all six
 * languages. Each scene opens a page, dialog or form once; the check then measures it at every width
 * (the page is resized, not reopened), placeholders against their inputs' room and titles against
 * their boxes (./overflow.ts). One page and one session per locale.
 */
const base = baseUrl;
const API = '/go_user/api/v1';
/** Small Android phones, the common Android widths, iPhone 12-16, and the Plus/Max phones. */
const WIDTHS = [320, 360, 390, 412, 430];
let userToken = '';
/** A proof task the user has not done (its dialog is a scene); operator titles show in English everywhere. */
const PROOF_TASK = 'Post a review of Kamai in the Play Store with a screenshot of it';

const api = <T>(method: string, path: string, body: unknown, token: string) =>
  apiCall<T>(method, path.startsWith('/obj/') ? path : `${API}${path}`, body, token);

type Scene = (page: Page, locale: Locale) => Promise<unknown>;

/** Scenes a logged-out visitor sees: the login dialog, its Register tab, the password reset form. */
const LOGGED_OUT: Record<string, Scene> = {
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
    // "Forgot password?" is the login form's last link (the username field's mode switch comes first).
    await page.getByRole('dialog').locator('.link-button').last().click();
    await page.getByRole('dialog').locator('input[name=verifyCode]').waitFor();
  },
};

const goto = (path: string, ready: string) => async (page: Page) => {
  await page.goto(`${base()}${path}`);
  await page.locator(ready).first().waitFor();
};

/**
 * Scenes of a logged-in user with money, a payout method, a pending withdrawal, a linked number, a long
 * notice, an operator's remark in income, proof tasks (one under review) and a limited-time task.
 */
const LOGGED_IN: Record<string, Scene> = {
  tasks: goto('/index/home', '.task-card-ends'),
  proof: async (page) => {
    await page.goto(`${base()}/index/home`);
    await page.getByRole('article', { name: PROOF_TASK }).locator('.task-action').click();
    await page.locator('.form-dialog input[name=link]').waitFor();
  },
  notices: goto('/List1', '.inbox-row-title'),
  my: goto('/index/user', '.profile-name'),
  'delete-account': async (page) => {
    await page.goto(`${base()}/index/user`);
    await page.locator('button.menu-row').last().click();
    await page.locator('.form-dialog input[name=password]').waitFor();
  },
  help: goto('/Help', '.info-faq'),
  terms: goto('/Terms', '.info-title'),
  privacy: goto('/Privacy', '.info-title'),
  income: goto('/List2', '.record-row-cause'),
  'withdraw-cancel': async (page) => {
    await page.goto(`${base()}/List4`);
    await page.locator('.withdrawal-row .record-row-side button').first().click();
    await page.locator('.confirm-dialog-text').waitFor();
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
  'payout-edit': async (page) => {
    await page.goto(`${base()}/List6`);
    await page.locator('.payout-row-actions button').first().click();
    await page.locator('.form-dialog input[name=accountNo]').waitFor();
  },
  add: async (page, locale) => {
    await page.goto(`${base()}/index/add`);
    await page.locator('.link-panel input').waitFor();
    await checkAtEveryWidth(page, locale, 'add (empty)');
    // A typed number, and the pairing code Get code brings.
    await page.locator('.link-panel input').fill(`98100000${String(LOCALES.indexOf(locale)).padStart(2, '0')}`);
    await page.locator('.link-panel form button[type=submit]').click();
    await page.locator('.pairing-code-value:not(.pairing-code-empty)').first().waitFor();
  },
  rebind: async (page) => {
    await page.goto(`${base()}/List5`);
    await page.locator('.account-card-actions button').nth(1).click();
    await page.locator('.form-dialog input').first().fill('9810000099');
  },
};

let problems: string[] = [];

/** Measures the open scene at each width, then leaves the page at the first width. */
async function checkAtEveryWidth(page: Page, locale: Locale, scene: string) {
  await page.evaluate(() => document.fonts.ready);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // Two frames: the resize's layout and anything a ResizeObserver changed in the first.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    for (const o of (await findOverflows(page)) as Overflow[])
      problems.push(
        `${locale} ${width}px ${scene}: ${o.kind} ${o.where} "${o.text}" needs ${Math.ceil(o.needed)} px, has ${Math.floor(o.room)}`,
      );
  }
  await page.setViewportSize({ width: WIDTHS[0] ?? 320, height: 800 });
}

async function sweep(browser: Browser, locale: Locale): Promise<string[]> {
  problems = [];
  const context = await browser.newContext({
    viewport: { width: WIDTHS[0] ?? 320, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${base()}/index/home`);
  await page.evaluate((lang) => localStorage.setItem('kamai.locale', lang), locale);
  for (const [scene, open] of Object.entries(LOGGED_OUT)) {
    await open(page, locale);
    await checkAtEveryWidth(page, locale, scene);
  }
  await page.evaluate((token) => localStorage.setItem('kamai.token', token), userToken);
  for (const [scene, open] of Object.entries(LOGGED_IN)) {
    await open(page, locale);
    await checkAtEveryWidth(page, locale, scene);
  }
  await context.close();
  return problems;
}

/** Long operator texts, as the longest real ones would be. */
async function seed() {
  const { username, password } = firstAdmin();
  const admin = (await api<{ token: string }>('POST', '/common/user/login', { username, password }, '')).token;
  const user = await apiRegister(base());
  userToken = user.token;
  const me = await api<{ id: number }>('GET', '/user/user/detail', undefined, userToken);
  const remark = 'Diwali bonus for the top inviters of October, credited by the operator after the campaign';
  await api('POST', '/admin/revenue/add', { userId: me.id, amount: '500', remark }, admin);
  await api('POST', '/user/wdaccount/bind', { accountNo: 'ravi.kumar@okaxis', accountName: 'Ravi Kumar' }, userToken);
  await api('POST', '/user/withdraw/add', { amount: '120' }, userToken);
  const qr = await api<{ id: string }>('POST', '/obj/ws/account/login/getQRCode', undefined, userToken);
  // A fresh number: a failed test's retry seeds again on the same server.
  const linked = `98${String(Date.now()).slice(-8)}`;
  await api('POST', '/admin/ws/complete', { phone: linked, qrId: qr.id }, admin);
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
  const task = (title: string, extra: object) =>
    api<{ id: number }>(
      'POST',
      '/admin/task/add',
      {
        section: 'hot',
        reward: '25',
        titles: { en_US: title },
        verification: { kind: 'proof', proof: 'either' },
        ...extra,
      },
      admin,
    );
  const shared = await task('Share Kamai on your WhatsApp status and keep it up for a full day', {});
  await task(PROOF_TASK, {});
  await task('Diwali bonus: link one more messaging account before the festival ends', {
    section: 'limited',
    endsAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  });
  await api('POST', '/user/task/proof/submit', { taskId: shared.id, link: 'https://wa.me/status/1' }, userToken);
  const page = (slug: string, title: string, body: string) =>
    api('POST', '/admin/page/set', { slug, texts: { en_US: { title, body } } }, admin);
  await api(
    'POST',
    '/admin/page/set',
    {
      slug: 'help',
      texts: {
        en_US: {
          title: 'Help and support for withdrawals, linked accounts and rewards',
          body: 'Most questions are answered below. Write to us if yours is not.',
          faq: [{ question: 'When is my withdrawal paid to my UPI account or bank account?', answer: 'Within a day.' }],
        },
      },
      contact: {
        email: 'support-team-india@kamai.example.in',
        phone: '+91 98100 00000',
        hours: 'Mon-Sat 10:00-18:00 IST',
      },
    },
    admin,
  );
  await page('terms', 'Terms of Service of the Kamai rewards platform', 'By using Kamai you agree to these terms.');
  await page('privacy', 'Privacy Policy under the Digital Personal Data Protection Act, 2023', 'What we keep and why.');
}

test.describe('texts fit their boxes from 320 to 430 px', () => {
  test.beforeAll(seed);

  for (const locale of LOCALES) {
    test(`${locale}: auth forms, home tasks and proof, notices, my, account, help pages, income, withdrawals, payout and link forms`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      expect(await sweep(browser, locale)).toEqual([]);
    });
  }
});
