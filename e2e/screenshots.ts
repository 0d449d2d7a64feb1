/**
 * Looks at the app the way a user does: starts the real server on a fresh database, registers a
 * user through the API and saves phone-sized (390×844) screenshots of every route in each locale.
 * Run: `npx tsx e2e/screenshots.ts [outDir] [en_US,hi_IN,...] [/List2,...]` after `npm run build`; open
 * the PNGs. A third argument shoots only those routes (and none of the scenes).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LOCALES } from '@kamai/contract';
import { chromium, type Page } from 'playwright-core';
import { controlled } from './browser';
import { FIRST_ADMIN } from './env';
import { firstAdminOf, STAFF_ENV, startServer } from './server';

const out = resolve(process.argv[2] ?? '.tmp/screens-real');
/** Locales to shoot, comma-separated in the second argument (default: all six). */
const locales = (process.argv[3] ?? LOCALES.join(',')).split(',');
const ONLY = process.argv[4]?.split(',');
const ALL_ROUTES = [
  '/index/home',
  '/index/add',
  '/index/user',
  '/List1',
  '/List2',
  '/List3',
  '/List4',
  '/List5',
  '/List6',
  '/Que1',
  '/Intro1',
  '/Help',
  '/Terms',
  '/Privacy',
];
const ROUTES = ONLY ? ALL_ROUTES.filter((route) => ONLY.includes(route)) : ALL_ROUTES;

/** A proof task the user has not done yet: its Submit proof dialog is a scene. */
const PROOF_TASK = 'Post a review of Kamai on the Play Store';

/**
 * Pages in a state a route alone does not show: a code on the Add tab, the QR, a notice, a log, the
 * re-bind form, a task under review, the proof, withdrawal-cancel, delete-account and logout dialogs.
 */
function scenes(url: string, noticeId: number): Record<string, (page: Page) => Promise<unknown>> {
  let n = 0;
  return {
    'add-code': async (page) => {
      await page.goto(`${url}/index/add`);
      n += 1;
      await page.locator('.link-panel input').fill(`98100000${String(n).padStart(2, '0')}`);
      await page.locator('.link-panel form button[type=submit]').click();
      await page.locator('.pairing-code-value:not(.pairing-code-empty)').waitFor();
    },
    'add-qr': (page) => page.goto(`${url}/index/add?method=qr`),
    'List1-detail': (page) => page.goto(`${url}/List1?kind=notice&id=${noticeId}`),
    'List5-log': async (page) => {
      await page.goto(`${url}/List5`);
      await page.locator('.account-card-log-toggle').first().click();
    },
    'List5-rebind': async (page) => {
      await page.goto(`${url}/List5`);
      await page.locator('.account-card-actions button').nth(1).click();
      await page.getByRole('dialog').waitFor();
    },
    withdraw: async (page) => {
      await page.goto(`${url}/List4`);
      await page.locator('.payout-add-top button').click();
      await page.locator('.withdraw-account input:checked').waitFor();
      await page.locator('.form-dialog input[name=amount]').fill('250');
    },
    'List6-bank': async (page) => {
      await page.goto(`${url}/List6`);
      await page.locator('.payout-add button').click();
      await page.locator('.segmented-option').nth(1).click();
      await page.locator('.form-dialog input[name=ifsc]').waitFor();
    },
    'tasks-review': async (page) => {
      await page.goto(`${url}/index/home`);
      await page.locator('.task-card-review').first().scrollIntoViewIfNeeded();
    },
    'tasks-limited': async (page) => {
      await page.goto(`${url}/index/home`);
      await page.locator('.task-card-ends').first().scrollIntoViewIfNeeded();
    },
    'proof-submit': async (page) => {
      await page.goto(`${url}/index/home`);
      await page.getByRole('article', { name: PROOF_TASK }).locator('.task-action').click();
      await page.locator('.form-dialog input[name=link]').waitFor();
    },
    'withdraw-cancel': async (page) => {
      await page.goto(`${url}/List4`);
      await page.locator('.withdrawal-row .record-row-side button').first().click();
      await page.locator('.confirm-dialog-text').waitFor();
    },
    'delete-account': async (page) => {
      await page.goto(`${url}/index/user`);
      await page.locator('button.menu-row').last().click();
      await page.locator('.form-dialog input[name=password]').waitFor();
    },
    'logout-confirm': async (page) => {
      await page.goto(`${url}/index/user`);
      await page.locator('.logout-button').click();
      await page.locator('.confirm-dialog-text').waitFor();
    },
    // Home offline while its task list is still on its way: the skeleton's offline state (its picture
    // from the service worker's precache), saved as LOCALE_home-offline-state.png.
    'home-offline': async (page) => {
      await page.goto(`${url}/index/home`);
      await page.evaluate(() => navigator.serviceWorker?.ready);
      await page.route('**/task/list*', () => undefined);
      await page.reload();
      await page.locator('.balance-card-value').waitFor();
      await page.context().setOffline(true);
      await page.locator('.empty-state-image svg').waitFor({ timeout: 5000 });
      const locale = await page.evaluate(() => localStorage.getItem('kamai.locale'));
      await page.screenshot({ path: resolve(out, `${locale}_home-offline-state.png`) });
      await page.context().setOffline(false);
      await page.unroute('**/task/list*');
      // The loop's own shot of this scene is Home back online.
      await page.goto(`${url}/index/home`);
    },
    // The withdraw form's review step (Confirm once) and its answer, the state tracker (Confirm twice).
    'withdraw-review': async (page) => {
      await page.goto(`${url}/List4`);
      await page.locator('.payout-add-top button').click();
      await page.locator('.withdraw-account input:checked').waitFor();
      await page.locator('.form-dialog input[name=amount]').fill('250');
      await page.locator('.form-dialog button[type=submit]').click();
      await page.locator('.withdraw-review').waitFor();
    },
    'withdraw-done': async (page) => {
      await page.locator('.form-dialog button[type=submit]').click();
      await page.locator('.withdraw-tracker').waitFor();
    },
    // Last: it logs the page out (the next locale starts a new context with the token).
    'login-register': async (page) => {
      await page.evaluate(() => localStorage.removeItem('kamai.token'));
      await page.goto(`${url}/index/home`);
      await page.locator('.hero-card-button').click();
      await page.locator('.auth-tabs [role=tab]').nth(1).click();
      await page.locator('.form-dialog input[name=password2]').waitFor();
    },
  };
}

/** Two linked numbers (one settled, one banned) and two notices, so /List5 and /List1 show real rows. */
async function seedLinkedAndNotices(url: string, token: string): Promise<number> {
  const call = async (method: string, path: string, body: unknown, bearer: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return ((await res.json()) as { data: { token: string; id: number } }).data;
  };
  const login = await call(
    'POST',
    '/go_user/api/v1/common/user/login',
    {
      username: FIRST_ADMIN.username,
      password: FIRST_ADMIN.password,
    },
    '',
  );
  // Dual control: a change that waits for a second admin is applied by the server's second admin.
  const admin = (path: string, body: unknown) =>
    controlled<{ id: number }>(`/go_user/api/v1/admin${path}`, body, login.token, url);
  await admin('/ws/rate/set', { hourlyRate: '3600' });
  for (const phone of ['9812345678', '9898765432']) {
    const qr = await call('POST', '/obj/ws/account/login/getQRCode', undefined, token);
    await admin('/ws/complete', { phone, qrId: qr.id });
  }
  await new Promise((r) => setTimeout(r, 2500));
  await call('PUT', '/obj/ws/account/settlement/9812345678', undefined, token);
  await admin('/ws/rate/set', { hourlyRate: '2' });
  await admin('/ws/status', { phone: '9898765432', status: 'banned' });
  await admin('/notice/add', {
    title: 'Welcome to Kamai',
    body: 'Complete the newbie tasks to earn your first rewards.',
    published: true,
    pinned: true,
  });
  const notice = await admin('/notice/add', {
    title: 'Scheduled maintenance on Sunday',
    body: 'The app will be unavailable on Sunday from 02:00 to 03:00 IST while we upgrade our servers.\n\nYour balance and tasks are safe.',
    published: true,
  });
  await seedPayouts(url, token, admin);
  // Help with a contact and a FAQ (English and Hindi; the other languages fall back to English), Terms.
  await admin('/page/set', {
    slug: 'help',
    texts: {
      en_US: {
        title: 'Help and support',
        body: 'Most questions are answered below. Write to us if yours is not.',
        faq: [
          { question: 'When is my withdrawal paid?', answer: 'Usually within 24 hours of your request.' },
          {
            question: 'Can I cancel a withdrawal?',
            answer: 'Yes, while it is under review: open “Withdrawal records”.',
          },
        ],
      },
      hi_IN: {
        title: 'सहायता',
        body: 'अधिकांश प्रश्नों के उत्तर नीचे हैं। अगर आपका नहीं है तो हमें लिखें।',
        faq: [{ question: 'मेरी निकासी कब मिलेगी?', answer: 'आम तौर पर अनुरोध के 24 घंटे के भीतर।' }],
      },
    },
    contact: { email: 'support@kamai.in', phone: '+91 98100 00000', hours: 'Mon-Sat 10:00-18:00 IST' },
  });
  await seedTasks(url, token, admin);
  await admin('/page/set', {
    slug: 'privacy',
    texts: {
      en_US: {
        title: 'Privacy policy',
        body: 'We keep your phone number, your linked accounts and your payout methods to pay you.\n\nYou can delete your account from My at any time (Digital Personal Data Protection Act, 2023).',
      },
      hi_IN: {
        title: 'गोपनीयता नीति',
        body: 'आपको भुगतान करने के लिए हम आपका फ़ोन नंबर, जुड़े खाते और भुगतान के तरीके रखते हैं।\n\nआप ‘मेरा’ पेज से कभी भी अपना खाता हटा सकते हैं (डिजिटल व्यक्तिगत डेटा संरक्षण अधिनियम, 2023)।',
      },
    },
  });
  await admin('/page/set', {
    slug: 'terms',
    texts: {
      en_US: {
        title: 'Terms of use',
        body: 'By using Kamai you agree to these terms.\n\nRewards are paid only for tasks verified by the platform.',
      },
    },
  });
  return notice.id;
}

/** Two proof tasks (one with a proof under review) and a limited-time task ending in two days, on Home. */
async function seedTasks(url: string, token: string, admin: (path: string, body: unknown) => Promise<unknown>) {
  const add = (title: string, extra: object) =>
    admin('/task/add', {
      section: 'hot',
      reward: '20',
      titles: { en_US: title },
      verification: { kind: 'proof', proof: 'either' },
      ...extra,
    }) as Promise<{ id: number }>;
  const shared = await add('Share Kamai on your WhatsApp status', {
    titles: { en_US: 'Share Kamai on your WhatsApp status', hi_IN: 'अपने WhatsApp स्टेटस पर Kamai शेयर करें' },
  });
  await add(PROOF_TASK, {});
  await add('Diwali bonus: link one more account', {
    section: 'limited',
    reward: '50',
    endsAt: new Date(Date.now() + (2 * 24 + 3) * 3_600_000).toISOString(),
    verification: { kind: 'automatic', condition: { type: 'linked_accounts', count: 3, online: true } },
  });
  await fetch(`${url}/go_user/api/v1/user/task/proof/submit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ taskId: shared.id, link: 'https://wa.me/status/12345' }),
  });
}

/** A ₹5 fee, two payout methods and three withdrawals (paid, rejected with a reason, under review) for /List6 and /List4. */
async function seedPayouts(url: string, token: string, admin: (path: string, body: unknown) => Promise<unknown>) {
  const user = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/go_user/api/v1/user${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return ((await res.json()) as { data: { id: number } }).data;
  };
  const me = await user('GET', '/user/detail');
  // A fee, so the receipt shows gross, fee and net; room for the withdraw-review scene's fourth request today.
  await admin('/settings/set', { withdrawal: { dailyCount: 5, fee: '5' } });
  await admin('/revenue/add', { userId: me.id, amount: '1200', remark: 'Screenshot funds' });
  await user('POST', '/wdaccount/bind', {
    accountType: 'bank',
    accountNo: '123456789012',
    ifsc: 'SBIN0001234',
    accountName: 'Ravi Kumar',
    isDefault: 0,
  });
  await user('POST', '/wdaccount/bind', { accountNo: 'ravi.kumar@okaxis', accountName: 'Ravi Kumar' });
  const paid = await user('POST', '/withdraw/add', { amount: '150' });
  await admin('/withdraw/review', { id: paid.id, action: 'approve' });
  const rejected = await user('POST', '/withdraw/add', { amount: '100' });
  await admin('/withdraw/review', { id: rejected.id, action: 'reject', reason: 'Name does not match the bank record' });
  await user('POST', '/withdraw/add', { amount: '320.50' });
  // The sandbox gateway reports the approved payout after SANDBOX_PAYOUT_DELAY_MS.
  await new Promise((r) => setTimeout(r, 1500));
}

async function main() {
  mkdirSync(out, { recursive: true });
  const server = await startServer(STAFF_ENV);
  const invite = firstAdminOf(server).inviteCode;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ code: number; data: { token: string } }>);
  const phone = '9876543210';
  await post('/go_user/api/v1/common/otp/send', { target: phone, type: 1 });
  await new Promise((r) => setTimeout(r, 300));
  const code = readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"otp.sandbox"'))
    .map((l) => JSON.parse(l) as { code: string })
    .at(-1)?.code;
  const registered = await post('/go_user/api/v1/common/user/register', {
    username: phone,
    password: 'secret123',
    password2: 'secret123',
    verifyCode: code,
    inviteCode: invite,
  });
  const noticeId = await seedLinkedAndNotices(server.url, registered.data.token);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    for (const locale of locales) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/index/home`);
      await page.evaluate(
        ([token, lang]) => {
          localStorage.setItem('kamai.token', token ?? '');
          localStorage.setItem('kamai.locale', lang ?? 'en_US');
        },
        [registered.data.token, locale],
      );
      for (const route of ROUTES) {
        await page.goto(`${server.url}${route}`);
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(300);
        const name = `${locale}${route.replaceAll('/', '_')}.png`;
        await page.screenshot({ path: resolve(out, name) });
      }
      for (const [scene, act] of ONLY ? [] : Object.entries(scenes(server.url, noticeId))) {
        await act(page);
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(400);
        await page.screenshot({ path: resolve(out, `${locale}_${scene}.png`) });
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(`screenshots in ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
