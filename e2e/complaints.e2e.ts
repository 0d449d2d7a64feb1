import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Browser, expect, test } from '@playwright/test';
import { apiCall, phonePage, uniquePhone } from './browser';
import { type RunningServer, startServer } from './server';

/**
 * A complaint from raising to overdue: a user raises it in Hindi from Help, an operator replies in the
 * console, the user reads the reply; then its resolution deadline passes (the server is stopped and
 * the complaint's raising time moved back in its PGlite database) and the console, the dashboard and
 * /metrics count it overdue.
 */
const ADMIN = { username: 'complaints-e2e@kamai.example', password: 'complaints-e2e-1' };
const dataDir = mkdtempSync(join(tmpdir(), 'kamai-e2e-complaints-'));
const env = {
  DATA_DIR: dataDir,
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  INVITE_CODE_REQUIRED: 'false',
};
let server: RunningServer;
/** Where the complaint's screenshots go when E2E_SHOTS names a folder. */
const SHOTS = process.env.E2E_SHOTS;

test.beforeAll(async () => {
  server = await startServer(env);
});
test.afterAll(async () => {
  await server?.stop();
});

const api = <T>(method: string, path: string, token: string | null, body?: unknown) =>
  apiCall<T>(method, `/go_user/api/v1${path}`, body, token, server.url);

/** A user registered through the API, the code read from this server's sandbox log line. */
async function newUser() {
  const phone = uniquePhone();
  await api('POST', '/common/otp/send', null, { target: phone, type: 1 });
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i += 1) {
    code = server.lines
      .map((line) =>
        line.startsWith('{') ? (JSON.parse(line) as { msg?: string; target?: string; code?: string }) : {},
      )
      .find((entry) => entry.msg === 'otp.sandbox' && entry.target === `91${phone}`)?.code;
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  const password = 'secret123';
  const { token } = await api<{ token: string }>('POST', '/common/user/register', null, {
    username: phone,
    password,
    password2: password,
    verifyCode: code,
  });
  return token;
}

async function adminToken() {
  return (await api<{ token: string }>('POST', '/common/user/login', null, ADMIN)).token;
}

async function appAs(browser: Browser, token: string, locale: string) {
  const page = await phonePage(browser);
  await page.goto(`${server.url}/Help`);
  await page.evaluate(
    ([value, lang]) => {
      localStorage.setItem('kamai.token', value ?? '');
      localStorage.setItem('kamai.locale', lang ?? 'en_US');
    },
    [token, locale],
  );
  await page.reload();
  return page;
}

/** The console, logged in with `token`, at `#/<path>`. */
async function consoleAs(browser: Browser, token: string, path: string) {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${server.url}/admin/#/${path}`);
  await page.evaluate((value) => localStorage.setItem('kamai.admin.token', value), token);
  await page.reload();
  return page;
}

async function metric(name: string) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

test('a complaint raised in Hindi is answered in the console, read by the user, and counted once overdue', async ({
  browser,
}) => {
  const userToken = await newUser();
  const app = await appAs(browser, userToken, 'hi_IN');

  // Help → Raise a complaint, in Hindi.
  await app.getByRole('button', { name: 'शिकायत दर्ज करें' }).first().click();
  await expect(app).toHaveURL(/\/ComplaintNew$/);
  await app.getByLabel('मेरा डेटा और गोपनीयता').check();
  await app.getByRole('textbox', { name: 'क्या हुआ?' }).fill('मेरा पुराना नंबर मेरे खाते से हटा दें।');
  await app.getByRole('button', { name: 'शिकायत भेजें' }).click();
  await expect(app).toHaveURL(/\/Complaint\?id=\d+$/);
  const id = Number(new URL(app.url()).searchParams.get('id'));
  const number = `KM-${String(id).padStart(6, '0')}`;
  await expect(app.getByRole('heading', { name: number })).toBeVisible();
  await expect(app.getByText('पावती की अंतिम समय-सीमा')).toBeVisible();

  // The operator sees it in the queue, in the user's language, and replies.
  const admin = await adminToken();
  const desk = await consoleAs(browser, admin, 'complaints');
  await expect(desk.getByTestId('complaints-open')).toHaveText('1');
  const row = desk.getByRole('row').filter({ hasText: number });
  await expect(row.getByText('Written in हिन्दी')).toBeVisible();
  await row.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(desk.getByText('The user wrote in हिन्दी')).toBeVisible();
  await desk.getByRole('textbox', { name: 'Text for the user (in हिन्दी)' }).fill('आपका पुराना नंबर हटा दिया गया है।');
  await desk.getByRole('button', { name: 'Send reply' }).click();
  await expect(desk.getByText('Reply sent')).toBeVisible();
  await expect(row.getByText('Acknowledged')).toBeVisible();

  // The user reads the reply, and the notification of it.
  await app.reload();
  await expect(app.getByText('हमारी टीम का जवाब')).toBeVisible();
  await expect(app.getByText('आपका पुराना नंबर हटा दिया गया है।')).toBeVisible();
  const inbox = await api<{ items: { title: string }[] }>('GET', '/common/notice/list?kind=notification', userToken);
  expect(inbox.items.map((i) => i.title)).toContain(`Reply to complaint ${number}`);
  if (SHOTS) {
    // The complaint with its history, as the user reads it in Hindi and in Chinese (looked at, not asserted).
    mkdirSync(SHOTS, { recursive: true });
    await app.screenshot({ path: join(SHOTS, 'complaint-hi.png'), fullPage: true });
    await app.evaluate(() => localStorage.setItem('kamai.locale', 'zh_CN'));
    await app.reload();
    await expect(app.getByRole('heading', { name: number })).toBeVisible();
    await app.screenshot({ path: join(SHOTS, 'complaint-zh.png'), fullPage: true });
  }
  expect(await metric('kamai_complaints_open')).toBe(1);
  expect(await metric('kamai_complaints_overdue')).toBe(0);

  // Sixteen days pass without it being closed: its resolution deadline (15 days) is behind it.
  await server.stop();
  const db = new PGlite(join(dataDir, 'pglite'));
  await db.query(`update complaints set created_at = now() - interval '16 days' where id = $1`, [id]);
  await db.close();
  server = await startServer(env);

  expect(await metric('kamai_complaints_overdue')).toBe(1);
  const dashboard = await api<{ complaints: { open: number; overdue: number } }>('GET', '/admin/dashboard', admin);
  expect(dashboard.complaints).toEqual({ open: 1, overdue: 1 });
  const again = await consoleAs(browser, admin, 'complaints');
  await again.getByText('Past a deadline').click();
  const late = again.getByRole('row').filter({ hasText: number });
  await expect(late.getByText('Resolution overdue')).toBeVisible();
  await again.goto(`${server.url}/admin/#/dashboard`);
  await expect(again.getByText('1 past a deadline')).toBeVisible();
});
