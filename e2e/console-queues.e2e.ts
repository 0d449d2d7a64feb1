import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister, PHONE } from './browser';
import { baseUrl, firstAdmin, SECOND_ADMIN } from './env';

/**
 * The console at work (docs/decisions/console-queues-refresh.md): the withdrawals queue refreshes by
 * itself when another admin acts, holds still while a dialog is open, counts what waits in the menu
 * and the tab's title, explains an action someone else made stale, and reads on a phone as short cards.
 */

const API = '/go_user/api/v1';
const DESKTOP = { width: 1280, height: 800 };
/** Where the queue's screenshots go when E2E_SHOTS names a folder (looked at by a person, not asserted). */
const SHOTS = process.env.E2E_SHOTS;

const login = async (username: string, password: string) =>
  (await apiCall<{ token: string }>('POST', `${API}/common/user/login`, { username, password }, null)).token;
const firstToken = () => login(firstAdmin().username, firstAdmin().password);
const secondToken = () => login(SECOND_ADMIN.username, SECOND_ADMIN.password);

/**
 * A new user with a bank account (IFSC shown) and `count` withdrawals in review. Registered through the
 * API a moment ago with no device id, its first withdrawal carries risk reasons.
 */
async function withdrawals(count: number) {
  const admin = await firstToken();
  const user = await apiRegister(baseUrl());
  const me = await apiCall<{ id: number }>('GET', `${API}/user/user/detail`, undefined, user.token);
  await apiCall('POST', `${API}/admin/revenue/add`, { userId: me.id, amount: '900', remark: 'e2e queue' }, admin);
  await apiCall(
    'POST',
    `${API}/user/wdaccount/bind`,
    { accountType: 'bank', accountNo: '501001234567', ifsc: 'HDFC0001234', accountName: 'Meera Patel' },
    user.token,
  );
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await apiCall<{ id: number }>('POST', `${API}/user/withdraw/add`, { amount: '150' }, user.token)).id);
  }
  return { userId: me.id, ids, user };
}

async function consolePage(browser: Browser, viewport: { width: number; height: number }, locale = 'en_US') {
  const context = await browser.newContext(
    viewport.width < 768 ? { viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport },
  );
  const page = await context.newPage();
  const token = await firstToken();
  await page.goto(`${baseUrl()}/admin/`);
  await page.evaluate(
    ([value, lang]) => {
      localStorage.setItem('kamai.admin.token', value ?? '');
      localStorage.setItem('kamai.admin.locale', lang ?? 'en_US');
    },
    [token, locale],
  );
  return page;
}

async function openQueue(page: Page, userId: number) {
  await page.goto(`${baseUrl()}/admin/#/withdrawals?userId=${userId}`);
  await page.reload();
  // The page and its first list come in lazily; a machine under load takes its time.
  await page.locator('.ant-table-row, .row-card').first().waitFor({ timeout: 30_000 });
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

const review = (token: string, id: number, action: 'approve' | 'reject') =>
  apiCall(
    'POST',
    `${API}/admin/withdraw/review`,
    action === 'approve' ? { id, action } : { id, action, preset: 'other', reason: 'Checked by phone' },
    token,
  );

test.describe('the withdrawals queue at work', () => {
  test('a phone card shows what the reviewer decides on in under 300 px, actions at its foot', async ({ browser }) => {
    const { userId, ids, user } = await withdrawals(1);
    const page = await consolePage(browser, PHONE);
    await openQueue(page, userId);
    const card = page.locator('.row-card').filter({ has: page.getByTestId('withdrawal-card') });
    await expect(card).toHaveCount(1);
    // User, gross / fee / net, the account with its IFSC, and the risk reasons.
    await expect(card).toContainText('₹150.00');
    await expect(card).toContainText(/Fee ₹[\d.,]+ · to bank ₹[\d.,]+/);
    await expect(card).toContainText(`#${userId}`);
    await expect(card).toContainText(`Request #${ids[0]}`);
    await expect(card).toContainText('HDFC0001234');
    await expect(card).toContainText('Meera Patel');
    const reasons = card.locator('.queue-card-reasons li');
    expect(await reasons.count()).toBeGreaterThan(0);

    const box = await card.boundingBox();
    expect(box?.height ?? 999).toBeLessThanOrEqual(300);
    for (const name of ['Approve', 'Reject']) {
      const button = await card.getByRole('button', { name }).boundingBox();
      expect(button?.height ?? 0, name).toBeGreaterThanOrEqual(44);
      // At the card's foot: within the card's last 60 px, where a thumb holding the phone reaches.
      expect((box?.y ?? 0) + (box?.height ?? 0) - ((button?.y ?? 0) + (button?.height ?? 0)), name).toBeLessThan(20);
    }
    await shoot(page, 'withdrawals-390-en');

    // A complaint about that withdrawal reads as a short card too, its actions at the foot.
    const text = 'My withdrawal has not arrived yet. '.repeat(12);
    const raised = await apiCall<{ number: string }>(
      'POST',
      `${API}/user/complaint/add`,
      { category: 'withdrawal', text, subject: { kind: 'withdrawal', id: ids[0] } },
      user.token,
    );
    await page.goto(`${baseUrl()}/admin/#/complaints`);
    const complaint = page.locator('.row-card').filter({ hasText: raised.number });
    await expect(complaint).toHaveCount(1, { timeout: 30_000 });
    await expect(complaint).toContainText(`Withdrawal #${ids[0]}`);
    expect((await complaint.boundingBox())?.height ?? 999).toBeLessThanOrEqual(300);
    const reply = await complaint.getByRole('button', { name: 'Reply' }).boundingBox();
    expect(reply?.height ?? 0).toBeGreaterThanOrEqual(44);
    await page.context().close();
  });

  test('refreshes by itself when another admin acts, and the menu and title count what waits', async ({ browser }) => {
    const { userId, ids } = await withdrawals(2);
    const [first, second] = ids as [number, number];
    const page = await consolePage(browser, DESKTOP);
    await openQueue(page, userId);
    await expect(page.locator(`tr[data-row-key="${first}"]`)).toBeVisible();
    const badge = page.getByTestId('queue-count-withdrawals');
    await expect(badge).toBeVisible();
    const waiting = Number(await badge.textContent());
    expect(waiting).toBeGreaterThanOrEqual(2);
    await expect(page).toHaveTitle(`(${waiting}) Withdrawal review · Kamai console`);
    await shoot(page, 'withdrawals-1280-en');

    await review(await secondToken(), first, 'approve');
    // No reload: the list asks again within its 15 s and the row leaves; the counts follow.
    await expect(page.locator(`tr[data-row-key="${first}"]`)).toHaveCount(0, { timeout: 25_000 });
    await expect(page.locator(`tr[data-row-key="${second}"]`)).toBeVisible();
    await expect(badge).toHaveText(String(waiting - 1), { timeout: 25_000 });
    await expect(page).toHaveTitle(`(${waiting - 1}) Withdrawal review · Kamai console`);
    await page.context().close();
  });

  test('holds still while a dialog is open; an action another admin made stale is explained', async ({ browser }) => {
    const { userId, ids } = await withdrawals(2);
    const [held, stale] = ids as [number, number];
    const page = await consolePage(browser, DESKTOP);
    await openQueue(page, userId);
    const heldRow = page.locator(`tr[data-row-key="${held}"]`);
    await expect(heldRow).toBeVisible();

    // The reject dialog is open: another admin's approval does not pull the row away meanwhile.
    await heldRow.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await review(await secondToken(), held, 'approve');
    await page.waitForTimeout(20_000);
    await expect(heldRow).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(heldRow).toHaveCount(0, { timeout: 25_000 });

    // Approve's confirmation is open when another admin rejects the request; confirming is then stale.
    const staleRow = page.locator(`tr[data-row-key="${stale}"]`);
    await staleRow.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.locator('.ant-popconfirm');
    await expect(confirm).toBeVisible();
    await review(await secondToken(), stale, 'reject');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    const note = page.locator('.ant-notification-notice').filter({ hasText: 'Someone else decided this first' });
    await expect(note).toBeVisible();
    await expect(note).toContainText(
      new RegExp(
        `Already decided by ${SECOND_ADMIN.username.replace('.', '\\.')} at .+: now Rejected\\. The list has been refreshed\\.`,
      ),
    );
    await expect(staleRow).toHaveCount(0, { timeout: 10_000 });
    await page.context().close();
  });

  test('holds still while the tab is hidden, and asks again as soon as it is shown', async ({ browser }) => {
    const { userId, ids } = await withdrawals(1);
    const [id] = ids as [number];
    const page = await consolePage(browser, DESKTOP);
    await openQueue(page, userId);
    const row = page.locator(`tr[data-row-key="${id}"]`);
    await expect(row).toBeVisible();
    const visibility = (state: 'hidden' | 'visible') =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => value === 'hidden' });
        // As a browser fires it: at the document, bubbling to the window (where TanStack Query listens).
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      }, state);
    await visibility('hidden');
    await review(await secondToken(), id, 'approve');
    await page.waitForTimeout(20_000);
    await expect(row).toHaveCount(1);
    await visibility('visible');
    await expect(row).toHaveCount(0, { timeout: 5_000 });
    await page.context().close();
  });

  test('in Hindi too: the phone card stays under 300 px and the title counts in Hindi', async ({ browser }) => {
    const { userId } = await withdrawals(2);
    const phone = await consolePage(browser, PHONE, 'hi_IN');
    await openQueue(phone, userId);
    const cards = phone.locator('.row-card').filter({ has: phone.getByTestId('withdrawal-card') });
    await expect(cards).toHaveCount(2);
    await expect(cards.first().getByRole('button', { name: 'स्वीकृत करें' })).toBeVisible();
    for (const card of await cards.all()) expect((await card.boundingBox())?.height ?? 999).toBeLessThanOrEqual(300);
    await shoot(phone, 'withdrawals-390-hi');
    await phone.context().close();

    const desk = await consolePage(browser, DESKTOP, 'hi_IN');
    await openQueue(desk, userId);
    await expect(desk.locator('.ant-table-row')).toHaveCount(2);
    await expect(desk).toHaveTitle(/^\(\d+\) निकासी समीक्षा · /);
    await shoot(desk, 'withdrawals-1280-hi');
    await desk.context().close();
  });
});
