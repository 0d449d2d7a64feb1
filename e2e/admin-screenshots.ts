/**
 * Walks the operator console the way an operator does, at a desktop viewport (1440×900): starts the
 * built server (`server/dist/main.js`) on a fresh database, seeds users, withdrawals and a linked
 * number through the API, and saves a screenshot of every page and of each confirmation.
 * Run: `npm run build && npx tsx e2e/admin-screenshots.ts [outDir]`; open the PNGs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '@kamai/contract/constants';
import { chromium, type Page } from 'playwright-core';
import { controlled } from './browser';
import { SECOND_ADMIN } from './env';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? '.tmp/admin-screens');
const ADMIN = { username: 'ops@example.com', password: 'console-walk-1' };
const API = '/go_user/api/v1';

async function start(): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-console-'));
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      STAFF_ACCOUNTS: JSON.stringify([SECOND_ADMIN]),
      SANDBOX_PAYOUT_DELAY_MS: '300',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('server exited');
    if (
      await fetch(`${url}/obj/test/t2`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child, dataDir };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function main() {
  mkdirSync(out, { recursive: true });
  const server = await start();
  try {
    await walk(server.url);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((done) => server.child.once('exit', done));
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

async function walk(url: string) {
  const call = async <T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${API}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await res.json()) as { code: number; data: T };
    if (envelope.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
    return envelope.data;
  };
  const admin = (await call<{ token: string }>('POST', '/common/user/login', null, ADMIN)).token;
  const adminMe = await call<{ inviteCode: string }>('GET', '/user/user/detail', admin);

  async function register(n: number) {
    const phone = `98765${String(n).padStart(5, '0')}`;
    await call('POST', '/common/otp/send', null, { target: phone, type: 1 });
    const outbox = await call<{ items: { target: string; code: string }[] }>('GET', '/admin/otp/outbox', admin);
    const code = outbox.items.find((item) => item.target.endsWith(phone))?.code;
    const password = 'secret123';
    const { token } = await call<{ token: string }>('POST', '/common/user/register', null, {
      username: phone,
      password,
      password2: password,
      verifyCode: code,
      inviteCode: adminMe.inviteCode,
    });
    const me = await call<{ id: number }>('GET', '/user/user/detail', token);
    return { id: me.id, token, username: `91${phone}`, password };
  }

  const users = [];
  for (let n = 1; n <= 4; n++) users.push(await register(n));
  for (const [i, user] of users.entries()) {
    await call('POST', '/admin/revenue/add', admin, { userId: user.id, amount: String(600 + i * 50), remark: 'Walk' });
    await call('POST', '/user/wdaccount/bind', user.token, {
      accountType: 'upi',
      accountNo: `walker${i}@okaxis`,
      accountName: `Walker ${i}`,
    });
    const first = await call<{ id: number }>('POST', '/user/withdraw/add', user.token, {
      amount: String(120 + i * 10),
    });
    await call('POST', '/user/withdraw/add', user.token, { amount: String(100 + i) });
    // A paid and a rejected request (with its reason) for the trends and the review table's Reason column.
    if (i === 0) await call('POST', '/admin/withdraw/review', admin, { id: first.id, action: 'approve' });
    if (i === 1) {
      await call('POST', '/admin/withdraw/review', admin, {
        id: first.id,
        action: 'reject',
        reason: 'The account holder name does not match the name on the bank record',
      });
    }
  }
  const linkedPhone = '9811122233';
  const code = await fetch(`${url}/obj/ws/account/login/genPhoneCode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${users[0]?.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ phone: linkedPhone, countryCode: '91' }),
  });
  if (!code.ok) throw new Error(`genPhoneCode: ${await code.text()}`);
  await call('POST', '/admin/ws/complete', admin, { phone: linkedPhone });
  await call('POST', '/admin/ws/status', admin, { phone: linkedPhone, status: 'offline' });
  await call('POST', '/admin/ws/status', admin, { phone: linkedPhone, status: 'online' });
  await call('POST', '/admin/notice/add', admin, {
    title: 'Weekend bonus',
    body: 'Tasks pay double this weekend.',
    published: true,
    pinned: true,
  });
  const reviewer = users[3];
  if (!reviewer) throw new Error('no reviewer');
  await controlled(`${API}/admin/user/role`, { userId: reviewer.id, role: 'reviewer' }, admin, url);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const shots: string[] = [];
  const shoot = async (page: Page, name: string) => {
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(out, `${name}.png`) });
    shots.push(name);
  };
  const login = async (page: Page, who: { username: string; password: string }) => {
    await page.goto(`${url}/admin/`);
    await page.getByLabel('Phone number or e-mail').fill(who.username);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('operator').waitFor();
  };
  const open = async (page: Page, menu: string) => {
    await page.getByRole('menuitem', { name: menu }).click();
    await page.waitForLoadState('networkidle');
  };

  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${url}/admin/`);
    await shoot(page, '01-login');
    await login(page, ADMIN);
    await page.waitForLoadState('networkidle');
    await shoot(page, '02-dashboard');
    await open(page, 'Withdrawal review');
    await shoot(page, '03-withdrawals');
    await page.locator('.ant-table-row').first().click();
    await shoot(page, '04-withdrawals-history');
    await page.locator('.ant-table-row .ant-checkbox-input').nth(0).check();
    await page.locator('.ant-table-row .ant-checkbox-input').nth(1).check();
    await page.getByRole('button', { name: /Approve selected/ }).click();
    await shoot(page, '05-bulk-confirm');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.ant-table-row').first().getByRole('button', { name: 'Reject' }).click();
    await shoot(page, '06-reject-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await open(page, 'Users');
    await shoot(page, '07-users');
    await page.locator('.ant-table-row').first().click();
    await page.locator('.ant-drawer').waitFor();
    await page.waitForLoadState('networkidle');
    await shoot(page, '08-user-drawer');
    await page.keyboard.press('Escape');
    await open(page, 'Tasks');
    await shoot(page, '09-tasks');
    await page.getByRole('button', { name: 'New task' }).click();
    await shoot(page, '10-task-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await open(page, 'Notices');
    await shoot(page, '11-notices');
    await open(page, 'Settings');
    await shoot(page, '12-settings');
    await open(page, 'Linked accounts');
    await shoot(page, '13-linked');
    await page.getByRole('button', { name: 'Event log' }).first().click();
    await page.waitForLoadState('networkidle');
    await shoot(page, '14-linked-log');
    await page.keyboard.press('Escape');
    await open(page, 'OTP outbox');
    await shoot(page, '15-outbox');
    await open(page, 'Audit log');
    await shoot(page, '16-audit');
    await context.close();

    // The dashboard's trends, the review table at 1280 px and the pages
    // (credits, task proofs, payout mismatches, Help/Terms/Privacy editor), in all six languages.
    for (const locale of LOCALES) {
      const narrow = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const wide = await narrow.newPage();
      await wide.goto(`${url}/admin/`);
      await wide.evaluate(
        ([token, lang]) => {
          localStorage.setItem('kamai.admin.token', token ?? '');
          localStorage.setItem('kamai.admin.locale', lang ?? 'en_US');
        },
        [admin, locale],
      );
      // A change of the hash alone keeps the page: reload, so the console reads the token and language.
      await wide.goto(`${url}/admin/#/dashboard`);
      await wide.reload();
      await wide.locator('.recharts-surface').first().waitFor();
      await wide.waitForTimeout(400);
      await wide.screenshot({ path: join(out, `20-${locale}-1280-dashboard.png`), fullPage: true });
      shots.push(`20-${locale}-1280-dashboard`);
      await wide.goto(`${url}/admin/#/withdrawals?state=all`);
      await wide.locator('.ant-table-row').nth(1).click();
      await shoot(wide, `21-${locale}-1280-withdrawals`);
      await wide.goto(`${url}/admin/#/notices`);
      await wide.locator('.ant-card .ant-btn-primary').first().click();
      await shoot(wide, `22-${locale}-1280-notice-form`);
      for (const [n, path] of [
        [23, 'credits'],
        [24, 'proofs'],
        [25, 'payout-mismatches'],
        [26, 'pages'],
      ] as const) {
        await wide.goto(`${url}/admin/#/${path}`);
        await wide.waitForLoadState('networkidle');
        await shoot(wide, `${n}-${locale}-1280-${path}`);
      }
      await narrow.close();
    }

    const staff = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const reviewerPage = await staff.newPage();
    await login(reviewerPage, reviewer);
    await reviewerPage.waitForLoadState('networkidle');
    await shoot(reviewerPage, '17-reviewer-dashboard');
    await reviewerPage.goto(`${url}/admin/#/outbox`);
    await shoot(reviewerPage, '18-reviewer-refused');
    await reviewerPage.goto(`${url}/admin/#/settings`);
    await reviewerPage.waitForLoadState('networkidle');
    await shoot(reviewerPage, '19-reviewer-settings');
    await staff.close();
  } finally {
    await browser.close();
  }
  console.log(`${shots.length} screenshots in ${out}: ${shots.join(', ')}`);
}

await main();
