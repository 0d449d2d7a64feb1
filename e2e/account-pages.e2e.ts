import { MONTH_NAMES } from '@kamai/contract';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister, controlled, PHONE } from './browser';
import { baseUrl, firstAdmin } from './env';

/**
 * Account pages (items 8 and 10-13 below) as a user sees them in Chromium at 390×844: dates in the reader's
 * language with Latin digits, sharing the invite, the withdrawal fee and payout time, the operator's
 * Help, Terms and Privacy, the remark of a manual credit and the payout form's keep-number hint.
 */
const base = baseUrl;
const API = '/go_user/api/v1';
let adminToken = '';

const api = <T>(method: string, path: string, body: unknown, token: string) =>
  apiCall<T>(method, `${API}${path}`, body, token);

/** A new user credited ₹`amount` by the operator with `remark`, and a default UPI account. */
/** A manual credit with an internal note (staff only) and the text the user's income record shows. */
async function creditedUser(amount: string, userText: string) {
  const user = await apiRegister(base());
  const me = await api<{ id: number }>('GET', '/user/user/detail', undefined, user.token);
  await api(
    'POST',
    '/admin/revenue/add',
    { userId: me.id, amount, remark: 'Internal: QA batch 7', userText },
    adminToken,
  );
  await api('POST', '/user/wdaccount/bind', { accountNo: 'ravi.k@okaxis', accountName: 'Ravi Kumar' }, user.token);
  return user;
}

async function appPage(browser: Browser, token: string, initScript?: () => void): Promise<Page> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    timezoneId: 'Asia/Kolkata',
  });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${base()}/index/home`);
  await page.evaluate((value) => localStorage.setItem('kamai.token', value), token);
  return page;
}

test.beforeAll(async () => {
  const { username, password } = firstAdmin();
  adminToken = (await api<{ token: string }>('POST', '/common/user/login', { username, password }, '')).token;
});

test.describe('account pages, items 8 and 10-13, in the browser at 390×844', () => {
  test('item 8: Hindi, Marathi, Punjabi and Gujarati income records show Latin digits and their own month names', async ({
    browser,
  }) => {
    const user = await creditedUser('250', 'Festival bonus');
    const page = await appPage(browser, user.token);
    const indianDigits = /[\u0966-\u096F\u0A66-\u0A6F\u0AE6-\u0AEF]/;
    const englishMonth = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/;
    for (const locale of ['hi_IN', 'mr_IN', 'pa_IN', 'gu_IN'] as const) {
      await page.evaluate((value) => localStorage.setItem('kamai.locale', value), locale);
      await page.goto(`${base()}/List2`);
      const time = page.locator('.record-row-time').first();
      await time.waitFor();
      const shown = (await time.textContent()) ?? '';
      const iso = (await time.getAttribute('datetime')) ?? '';
      const month =
        Number(new Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata', month: 'numeric' }).format(new Date(iso))) - 1;
      const names = MONTH_NAMES[locale];
      const localMonth = [names?.short[month], names?.long[month]].filter((name): name is string => Boolean(name));
      expect(
        localMonth.some((name) => shown.includes(name)),
        `${locale}: "${shown}" names ${localMonth.join(' / ')}`,
      ).toBe(true);
      expect(shown, locale).toMatch(/\d{4}/);
      expect(shown, locale).not.toMatch(englishMonth);
      // No digit of the page is Devanagari, Gurmukhi or Gujarati: amounts, balance and dates alike.
      const text = await page.locator('body').innerText();
      expect(text.match(indianDigits), locale).toBeNull();
      await expect(page.getByText('₹250.00').first()).toBeVisible();
    }
    await page.context().close();
  });

  test('item 10: Share uses the Web Share API where the browser has it, else a WhatsApp link', async ({ browser }) => {
    const user = await apiRegister(base());
    const sharing = await appPage(browser, user.token, () => {
      const shared: ShareData[] = [];
      Object.assign(window, { sharedForTest: shared });
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => {
          shared.push(data);
        },
      });
    });
    await sharing.goto(`${base()}/List3`);
    await expect(sharing.locator('.invite-card-link')).toContainText('?invite=');
    const link = ((await sharing.locator('.invite-card-link').textContent()) ?? '').trim();
    expect(await sharing.getByRole('link', { name: 'Share on WhatsApp' }).count()).toBe(0);
    await sharing.getByRole('button', { name: 'Share' }).click();
    const shared = await sharing.evaluate(() => (window as unknown as { sharedForTest: ShareData[] }).sharedForTest);
    expect(shared).toEqual([{ title: 'Join me on Kamai', text: expect.stringContaining('invite code'), url: link }]);
    await sharing.context().close();

    // Debian's Chromium has no share sheet on Linux: the WhatsApp link is there instead, with the message.
    const plain = await appPage(browser, user.token);
    expect(await plain.evaluate(() => typeof navigator.share)).toBe('undefined');
    await plain.goto(`${base()}/List3`);
    const whatsApp = plain.getByRole('link', { name: 'Share on WhatsApp' });
    const href = (await whatsApp.getAttribute('href')) ?? '';
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    expect(new URL(href).searchParams.get('text')).toContain(link);
    expect(await whatsApp.getAttribute('target')).toBe('_blank');
    expect(await plain.getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);
    await plain.context().close();
  });

  test('item 11: the withdraw dialog shows the fee and the payout time the operator set', async ({ browser }) => {
    const before = await api<{ withdrawal: { fee: string; payoutHours: number } }>(
      'GET',
      '/admin/settings/get',
      undefined,
      adminToken,
    );
    try {
      await controlled(`${API}/admin/settings/set`, { withdrawal: { fee: '5', payoutHours: 48 } }, adminToken);
      const user = await creditedUser('300', 'e2e funds');
      const page = await appPage(browser, user.token);
      await page.goto(`${base()}/List4`);
      await page.getByRole('button', { name: 'Withdraw' }).click();
      const dialog = page.getByRole('dialog', { name: 'Withdraw' });
      await expect(dialog.getByText('Fee: ₹5.00, taken from the amount when it is paid')).toBeVisible();
      await expect(dialog.getByText('Expected payout time: within 48 hours')).toBeVisible();
      await page.context().close();
    } finally {
      const { fee, payoutHours } = before.withdrawal;
      await controlled(`${API}/admin/settings/set`, { withdrawal: { fee, payoutHours } }, adminToken);
    }
  });

  test('item 12: Help, Terms and Privacy open from My with the operator text', async ({ browser }) => {
    const stamp = Date.now();
    const texts = {
      help: { title: `Help desk ${stamp}`, body: 'Write to us any day.' },
      terms: { title: `Terms ${stamp}`, body: 'Rewards are paid only for verified tasks.' },
      privacy: { title: `Privacy ${stamp}`, body: 'We keep your number to pay you.' },
    };
    await api(
      'POST',
      '/admin/page/set',
      {
        slug: 'help',
        texts: { en_US: { ...texts.help, faq: [{ question: 'When am I paid?', answer: 'Within a day.' }] } },
        contact: { email: 'help@kamai.example', phone: '+91 98100 00000', hours: '10:00-18:00 IST' },
      },
      adminToken,
    );
    await api('POST', '/admin/page/set', { slug: 'terms', texts: { en_US: texts.terms } }, adminToken);
    await api('POST', '/admin/page/set', { slug: 'privacy', texts: { en_US: texts.privacy } }, adminToken);
    const user = await apiRegister(base());
    const page = await appPage(browser, user.token);
    for (const [entry, path, text] of [
      ['Help', '/Help', texts.help],
      ['Terms of use', '/Terms', texts.terms],
      ['Privacy policy', '/Privacy', texts.privacy],
    ] as const) {
      await page.goto(`${base()}/index/user`);
      await page.getByRole('link', { name: entry }).click();
      await page.waitForURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { name: text.title })).toBeVisible();
      await expect(page.getByText(text.body)).toBeVisible();
    }
    await page.goto(`${base()}/Help`);
    await expect(page.getByRole('link', { name: 'help@kamai.example' })).toHaveAttribute(
      'href',
      'mailto:help@kamai.example',
    );
    await page.getByText('When am I paid?').click();
    await expect(page.getByText('Within a day.')).toBeVisible();
    await page.context().close();
  });

  test('the unread count shows on the My tab from Home, and goes once the notices are read', async ({ browser }) => {
    const user = await creditedUser('40', 'Compensation for a delayed payout');
    await api(
      'POST',
      '/admin/notice/add',
      { title: 'New tasks this week', body: 'Three new tasks.', published: true },
      adminToken,
    );
    const page = await appPage(browser, user.token);
    // Home's first screen draws the count from one plain read, without TanStack Query.
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.js')) chunks.push(new URL(request.url()).pathname);
    });
    await page.goto(`${base()}/index/home`);
    const tabs = page.getByRole('navigation', { name: 'Main navigation' });
    const badge = tabs.getByRole('status');
    await expect(badge).toHaveAccessibleName(/^\d+ unread$/);
    const unread = Number((await badge.textContent()) ?? '0');
    expect(unread).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(chunks.filter((path) => /\/(query-client|useQuery)-/.test(path))).toEqual([]);
    // The My tab loads the query cache: the same count, now on it.
    await tabs.getByRole('link', { name: /^My/ }).click();
    await expect(page.getByRole('link', { name: /System notices/ }).getByRole('status')).toHaveText(String(unread));
    await expect(badge).toHaveText(String(unread));
    await page.goto(`${base()}/List1`);
    for (let i = 0; i < unread; i += 1) {
      await page.locator('.inbox-row-unread').first().click();
      await page.goBack();
    }
    await page.goto(`${base()}/index/home`);
    await expect(page.locator('.tab-bar')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(badge).toHaveCount(0);
    await page.context().close();
  });

  test('reading the notices takes the count off the My tab without a reload', async ({ browser }) => {
    const user = await creditedUser('41', 'Compensation for a delayed payout');
    await api(
      'POST',
      '/admin/notice/add',
      { title: 'Holiday hours', body: 'Closed on Monday.', published: true },
      adminToken,
    );
    const page = await appPage(browser, user.token);
    await page.goto(`${base()}/index/home`);
    const badge = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('status');
    await expect(badge).toHaveAccessibleName(/^\d+ unread$/);
    await page.getByRole('link', { name: /^My/ }).click();
    await page.getByRole('link', { name: /System notices/ }).click();
    await page.waitForURL(/\/List1$/);
    await expect(page.locator('.inbox-row').first()).toBeVisible();
    // The list marks what it shows as read; the count on the cache follows, on Profile and the tab bar.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/\/index\/user$/);
    await expect(page.getByRole('link', { name: /System notices/ }).getByRole('status')).toHaveCount(0);
    await expect(badge).toHaveCount(0);
    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(/\/index\/home$/);
    await expect(page.locator('.balance-card-value')).toBeVisible();
    await expect(badge).toHaveCount(0);
    await page.context().close();
  });

  test("item 13: income records show the operator's text for the user, never the internal note; editing a payout method says the number is kept", async ({
    browser,
  }) => {
    const user = await creditedUser('75', 'Diwali bonus for top inviters');
    const page = await appPage(browser, user.token);
    await page.goto(`${base()}/List2`);
    const records = page.getByRole('list', { name: 'Income records' });
    await expect(records.getByText('Note: Diwali bonus for top inviters')).toBeVisible();
    await expect(records.getByText(/QA batch 7/)).toHaveCount(0);

    await page.goto(`${base()}/List6`);
    await page.getByRole('article', { name: 'UPI ra•••@okaxis' }).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog');
    await expect(
      form.getByText(
        'The saved number ra•••@okaxis is hidden for your safety. Leave this empty to keep it; retype the number only to change it.',
      ),
    ).toBeVisible();
    await page.context().close();
  });
});
