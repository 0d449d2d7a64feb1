import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES, type PayoutAccountItem } from '@kamai/contract';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister, phonePage } from './browser';
import { baseUrl, firstAdmin } from './env';

/**
 * Payout account validation in Chromium, on the sandbox gateway (docs/decisions/payout-account-validation.md): the
 * bank's
 * name on the payout method and in the withdraw dialog in two languages, a refused account, and the
 * name reason in the console's review queue.
 */
const base = baseUrl;
const API = '/go_user/api/v1';
const DESKTOP = { width: 1280, height: 800 };
let adminToken = '';
const admin = <T>(path: string, body: unknown) => apiCall<T>('POST', `${API}/admin${path}`, body, adminToken);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The web's own `check.*` texts, so a changed translation changes what is looked for. */
function checkTexts(locale: 'en_US' | 'hi_IN') {
  const file = resolve(root, `web/src/i18n/locales/${locale}/payoutAccounts.json`);
  const check = (JSON.parse(readFileSync(file, 'utf8')) as { check: Record<string, string> }).check;
  const fill = (key: string, name: string) => (check[key] ?? `missing ${key}`).replace('{{name}}', name);
  return {
    verified: (name: string) => fill('verified', name),
    payingTo: (name: string) => fill('payingTo', name),
    unverified: check.unverified ?? 'missing unverified',
  };
}
const EN = checkTexts('en_US');
const HI = checkTexts('hi_IN');

test.beforeAll(async () => {
  const { username, password } = firstAdmin();
  adminToken = (await apiCall<{ token: string }>('POST', `${API}/common/user/login`, { username, password }, '')).token;
});

let serial = 0;
/** A bank account number no other test of this run uses; `ending` sets its last four digits. */
function accountNumber(ending: string): string {
  serial += 1;
  return `5${String(Date.now() % 1e6).padStart(6, '0')}${serial}${ending}`;
}

/** A registered user with ₹`amount` credited. */
async function fundedUser(amount: string) {
  const user = await apiRegister(base());
  const me = await apiCall<{ id: number }>('GET', `${API}/user/user/detail`, undefined, user.token);
  await admin('/revenue/add', { userId: me.id, amount, remark: 'e2e account validation funds' });
  return { ...user, id: me.id };
}

const accountsOf = async (token: string) =>
  (await apiCall<{ items: PayoutAccountItem[] }>('GET', `${API}/user/wdaccount/list`, undefined, token)).items;

async function bindBank(token: string, accountNo: string, accountName: string) {
  await apiCall(
    'POST',
    `${API}/user/wdaccount/bind`,
    { accountType: 'bank', accountNo, ifsc: 'SBIN0001234', accountName },
    token,
  );
}

async function appPage(browser: Browser, token: string, locale = 'en_US'): Promise<Page> {
  const page = await phonePage(browser);
  await page.goto(`${base()}/index/home`);
  await page.evaluate(
    ([value, lang]) => {
      localStorage.setItem('kamai.token', value ?? '');
      localStorage.setItem('kamai.locale', lang ?? 'en_US');
    },
    [token, locale],
  );
  return page;
}

const toast = (page: Page, text: string) => page.locator('.adm-toast-main').filter({ hasText: text });

/** Asks for ₹150 in the open withdraw dialog: amount, Confirm, the review step, its Confirm. */
async function askAnyway(page: Page, texts: { dialog: string; amount: string; confirm: string; review: string }) {
  const dialog = page.getByRole('dialog', { name: texts.dialog });
  await dialog.getByLabel(texts.amount).fill('150');
  await dialog.getByRole('button', { name: texts.confirm }).click();
  await expect(dialog.getByText(texts.review)).toHaveCount(1);
  await dialog.getByRole('button', { name: texts.confirm }).click();
}

test.describe('payout accounts checked with the bank (sandbox), at 390×844', () => {
  test('a bank account bound in the app shows the bank name on the method and in the withdraw dialog, in English and Hindi', async ({
    browser,
  }) => {
    const user = await fundedUser('500');
    const page = await appPage(browser, user.token);
    const number = accountNumber('4321');
    const last4 = number.slice(-4);

    await page.goto(`${base()}/List6`);
    await page.getByRole('button', { name: 'Add payout method' }).click();
    const form = page.getByRole('dialog', { name: 'Add payout method' });
    // The first account is the default unless the user says otherwise.
    await expect(form.getByRole('switch', { name: 'Use as default' })).toBeChecked();
    await form.getByRole('radio', { name: 'Bank' }).check({ force: true });
    await form.getByLabel('Bank account number', { exact: true }).fill(number);
    await form.getByLabel('Bank account number again').fill(number);
    await form.getByLabel(/IFSC/).fill('sbin0001234');
    await form.getByLabel('Recipient name').fill('Rahul K Sharma');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.locator('.adm-toast-main').filter({ hasText: 'Binding successful' })).toHaveCount(1);

    // The sandbox's bank holds the typed name in capitals; "Verifying…" turns into it.
    const row = page.getByRole('article', { name: `Bank ••••${last4}` });
    await expect(row.getByText(EN.verified('RAHUL K SHARMA'), { exact: true })).toHaveCount(1, { timeout: 20_000 });
    // The name the user typed stays beside it.
    await expect(row.getByText(/^Rahul K Sharma · SBIN0001234$/)).toHaveCount(1);
    await expect(row.getByText(EN.unverified)).toHaveCount(0);
    // A second account is not made the default without asking.
    await page.getByRole('button', { name: 'Add payout method' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Add payout method' }).getByRole('switch', { name: 'Use as default' }),
    ).not.toBeChecked();
    await page.getByRole('dialog', { name: 'Add payout method' }).getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${base()}/List4`);
    await page.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw' });
    await expect(dialog.getByRole('radio', { name: new RegExp(`••••${last4}`) })).toBeChecked();
    await expect(dialog.getByText(EN.payingTo('RAHUL K SHARMA'), { exact: true })).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    // The same in Hindi, from the web's Hindi texts.
    await page.evaluate(() => localStorage.setItem('kamai.locale', 'hi_IN'));
    await page.goto(`${base()}/List6`);
    await expect(page.getByText(HI.verified('RAHUL K SHARMA'), { exact: true })).toHaveCount(1);
    await expect(page.getByText(EN.verified('RAHUL K SHARMA'))).toHaveCount(0);
    await page.goto(`${base()}/List4`);
    await page.getByRole('button', { name: 'निकासी करें' }).click();
    const hindiDialog = page.getByRole('dialog', { name: 'निकासी' });
    await expect(hindiDialog.getByText(HI.payingTo('RAHUL K SHARMA'), { exact: true })).toHaveCount(1);
    await expect(hindiDialog.getByText(EN.payingTo('RAHUL K SHARMA'))).toHaveCount(0);
    await page.context().close();
  });

  test('an account the bank does not know (…0000) says "Could not verify" and a withdrawal to it is refused, translated', async ({
    browser,
  }) => {
    const user = await fundedUser('500');
    const number = accountNumber('0000');
    await bindBank(user.token, number, 'Asha Devi');
    const page = await appPage(browser, user.token);

    await page.goto(`${base()}/List6`);
    const row = page.getByRole('article', { name: `Bank ••••0000` });
    await expect(row.getByText(new RegExp(`^${EN.unverified}`))).toHaveCount(1, { timeout: 20_000 });
    await expect(row.getByText(/Beneficiary account does not exist/)).toHaveCount(1);
    await expect(row.getByText(/^Verified · /)).toHaveCount(0);

    // The dialog warns under the account; asking anyway is refused with the server's message.
    await page.goto(`${base()}/List4`);
    await page.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw' });
    // Under the choice (the account's own label says it too): no "Paying to", the refusal instead.
    await expect(dialog.locator('p.paying-to[role="alert"]')).toHaveText(new RegExp(`^${EN.unverified} · Beneficiary`));
    await expect(dialog.getByText(/^Paying to /)).toHaveCount(0);
    await askAnyway(page, {
      dialog: 'Withdraw',
      amount: 'Amount',
      confirm: 'Confirm',
      review: 'Check before you confirm',
    });
    await expect(toast(page, MESSAGES.en_US.payout_account_unverified)).toHaveCount(1);
    await expect(dialog.getByText('Withdrawal requested')).toHaveCount(0);

    // In Hindi the dialog says so, and the refusal reads in Hindi.
    await page.evaluate(() => localStorage.setItem('kamai.locale', 'hi_IN'));
    await page.goto(`${base()}/List4`);
    await page.getByRole('button', { name: 'निकासी करें' }).click();
    const hindiDialog = page.getByRole('dialog', { name: 'निकासी' });
    await expect(hindiDialog.locator('p.paying-to[role="alert"]')).toHaveText(new RegExp(`^${HI.unverified}`));
    await askAnyway(page, { dialog: 'निकासी', amount: 'राशि', confirm: 'पुष्टि करें', review: 'पुष्टि करने से पहले जाँच लें' });
    await expect(toast(page, MESSAGES.hi_IN.payout_account_unverified)).toHaveCount(1);

    // Through the API in Hindi: the envelope's key and the Hindi message; nothing was held.
    const refused = await fetch(`${base()}${API}/user/withdraw/add`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'accept-language': 'hi_IN',
      },
      body: JSON.stringify({ amount: '150' }),
    });
    const envelope = (await refused.json()) as { key: string; message: string };
    expect(envelope.key).toBe('payout_account_unverified');
    expect(envelope.message).toBe(MESSAGES.hi_IN.payout_account_unverified);
    const listed = await apiCall<{ items: unknown[] }>('GET', `${API}/user/withdraw/list`, undefined, user.token);
    expect(listed.items).toHaveLength(0);
    const detail = await apiCall<{ balance: string }>('GET', `${API}/user/user/detail`, undefined, user.token);
    expect(detail.balance).toBe('505.00');
    await page.context().close();
  });
});

test.describe('the bank name in the review queue', () => {
  test('a user whose other account bears another name gets the name reason; the reviewer sees typed and bank names', async ({
    browser,
  }) => {
    // The sandbox's bank name is always the typed name in capitals, so this account alone matches. The
    // service also compares it with the names on the user's other accounts: a second account in another
    // person's name (a real case: paying out to someone else) brings the match below `nameMatchMin`.
    const user = await fundedUser('500');
    const payee = accountNumber('2468');
    await bindBank(user.token, payee, 'Vikram Singh Rathore');
    await bindBank(user.token, accountNumber('1357'), 'Neha Gupta');
    // A user with one account of their own name: the control, without the reason.
    const calmUser = await fundedUser('500');
    await bindBank(calmUser.token, accountNumber('9753'), 'Meera Iyer');

    for (const who of [user, calmUser]) {
      await expect
        .poll(async () => (await accountsOf(who.token)).map((a) => a.verification?.state).join(','), {
          timeout: 20_000,
        })
        .toMatch(/^verified(,verified)*$/);
    }
    const payeeAccount = (await accountsOf(user.token)).find((a) => a.accountNoMasked.endsWith(payee.slice(-4)));
    expect(payeeAccount).toBeDefined();
    const flagged = await apiCall<{ id: number }>(
      'POST',
      `${API}/user/withdraw/add`,
      { amount: '120', accountId: payeeAccount?.id },
      user.token,
    );
    const calm = await apiCall<{ id: number }>('POST', `${API}/user/withdraw/add`, { amount: '120' }, calmUser.token);

    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.goto(`${base()}/admin/`);
    await page.evaluate((token) => localStorage.setItem('kamai.admin.token', token), adminToken);
    await page.goto(`${base()}/admin/#/withdrawals?state=all&reason=risk_bank_name_mismatch&userId=${user.id}`);
    await page.reload();
    const row = page.locator(`tr[data-row-key="${flagged.id}"]`);
    await expect(row.getByText(MESSAGES.en_US.risk_bank_name_mismatch)).toHaveCount(1);
    await expect(row.getByText('Typed: Vikram Singh Rathore')).toHaveCount(1);
    await expect(row.getByText(/^Bank: VIKRAM SINGH RATHORE \(\d+% match\)$/)).toHaveCount(1);
    // The name that set the reason off: the user's other account, judged low by the server.
    await expect(row.getByText("Compared with the user's other accounts:")).toHaveCount(1);
    const other = row.getByText('Typed: Neha Gupta · Bank: NEHA GUPTA (0% match)');
    await expect(other).toHaveCount(1);
    await expect(other).toHaveClass(/ant-typography-danger/);

    // The control's withdrawal is not under the reason; on its own row both names show, without it.
    await page.goto(`${base()}/admin/#/withdrawals?state=all&reason=risk_bank_name_mismatch&userId=${calmUser.id}`);
    await expect(page.getByText('Nothing here yet')).toHaveCount(1);
    await page.goto(`${base()}/admin/#/withdrawals?state=all&userId=${calmUser.id}`);
    const calmRow = page.locator(`tr[data-row-key="${calm.id}"]`);
    await expect(calmRow.getByText('Typed: Meera Iyer')).toHaveCount(1);
    await expect(calmRow.getByText('Bank: MEERA IYER (100% match)')).toHaveCount(1);
    await expect(calmRow.getByText(MESSAGES.en_US.risk_bank_name_mismatch)).toHaveCount(0);
    await expect(calmRow.getByText("Compared with the user's other accounts:")).toHaveCount(0);

    // In Hindi the reason and the names read in Hindi.
    await page.evaluate(() => localStorage.setItem('kamai.admin.locale', 'hi_IN'));
    await page.goto(`${base()}/admin/#/withdrawals?state=all&userId=${user.id}`);
    await page.reload();
    const hindiRow = page.locator(`tr[data-row-key="${flagged.id}"]`);
    await expect(hindiRow.getByText(MESSAGES.hi_IN.risk_bank_name_mismatch)).toHaveCount(1);
    await expect(hindiRow.getByText('लिखा गया: Vikram Singh Rathore')).toHaveCount(1);
    await expect(hindiRow.getByText('लिखा गया: Neha Gupta · बैंक: NEHA GUPTA (0% मेल)')).toHaveCount(1);

    // In Gujarati, which antd does not ship, the queue's date range asks in Gujarati.
    await page.evaluate(() => localStorage.setItem('kamai.admin.locale', 'gu_IN'));
    await page.reload();
    await expect(page.getByPlaceholder('શરૂઆતની તારીખ').first()).toBeVisible();
    await expect(page.getByPlaceholder('અંતિમ તારીખ').first()).toBeVisible();
    await expect(page.getByPlaceholder('Start date')).toHaveCount(0);
    await page.context().close();
  });
});
