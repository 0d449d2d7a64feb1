import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCall, apiRegister, phonePage } from './browser';
import { baseUrl, firstAdmin } from './env';

let adminToken = '';
const base = baseUrl;

const api = apiCall;
const admin = <T>(path: string, body: unknown) => api<T>('POST', `/go_user/api/v1/admin${path}`, body, adminToken);

test.beforeAll(async () => {
  const { username, password } = firstAdmin();
  const login = await fetch(`${base()}/go_user/api/v1/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  adminToken = ((await login.json()) as { data: { token: string } }).data.token;
});

async function loggedInPage(browser: Browser, token: string): Promise<Page> {
  const page = await phonePage(browser);
  await page.goto(`${base()}/index/home`);
  await page.evaluate((value) => localStorage.setItem('kamai.token', value), token);
  return page;
}

const toast = (page: Page, text: string | RegExp) => page.locator('.adm-toast-main').filter({ hasText: text });

/** The caller's withdrawals as the API lists them, newest first. */
async function withdrawals(token: string) {
  return (
    await api<{ items: { id: number; state: string }[] }>('GET', '/go_user/api/v1/user/withdraw/list', undefined, token)
  ).items;
}

/** Fills and confirms the withdraw dialog. */
async function withdrawThroughDialog(page: Page, amount: string) {
  const dialog = page.getByRole('dialog', { name: 'Withdraw' });
  await dialog.waitFor();
  // The default account is chosen for the user.
  await expect(dialog.getByRole('radio', { name: /ra•••@okaxis/ })).toBeChecked();
  await dialog.getByLabel('Amount').fill(amount);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  // The review step, then the request; the answer is the state tracker, not a toast.
  await expect(dialog.getByText('Check before you confirm')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Withdrawal requested')).toHaveCount(1);
  await expect(dialog.getByRole('list', { name: 'Progress of the withdrawal' })).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
}

test.describe('withdrawals in the browser at 390×844', () => {
  test('binds UPI, withdraws ₹150 paid by the gateway, then sees a rejected one refunded with its reason', async ({
    browser,
  }) => {
    const user = await apiRegister(base());
    const me = await api<{ id: number }>('GET', '/go_user/api/v1/user/user/detail', undefined, user.token);
    await admin('/revenue/add', { userId: me.id, amount: '500', remark: 'e2e withdrawal funds' });
    const page = await loggedInPage(browser, user.token);

    // No payout method yet: the withdraw form says so and offers to add one.
    await page.goto(`${base()}/index/user`);
    await page.getByRole('button', { name: 'Withdraw' }).click();
    const withdrawDialog = page.getByRole('dialog', { name: 'Withdraw' });
    await expect(withdrawDialog.getByText(/no payout method yet/)).toHaveCount(1);
    await expect(withdrawDialog.getByText('₹505.00')).toHaveCount(1);
    await withdrawDialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${base()}/List6`);
    await expect(page.getByText('No payout methods yet')).toHaveCount(1);
    await page.getByRole('button', { name: 'Add payout method' }).click();
    const form = page.getByRole('dialog', { name: 'Add payout method' });
    await expect(form.getByRole('radio', { name: 'UPI' })).toBeChecked();
    // Bank fields appear only for a bank account.
    expect(await form.getByLabel(/IFSC/).count()).toBe(0);
    await form.getByRole('radio', { name: 'Bank' }).check({ force: true });
    await expect(form.getByLabel(/IFSC/)).toHaveCount(1);
    await form.getByRole('radio', { name: 'UPI' }).check({ force: true });
    // The contract's rules answer before anything is sent.
    await form.getByLabel(/UPI ID/).fill('not a upi id');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(form.locator('.text-field-error').first()).toBeVisible();
    await form.getByLabel(/UPI ID/).fill('ravi.kumar@okaxis');
    await form.getByLabel("Account holder's name").fill('Ravi Kumar');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(toast(page, 'Binding successful')).toHaveCount(1);
    const row = page.getByRole('article', { name: 'UPI ra•••@okaxis' });
    await expect(row.getByText('Default')).toHaveCount(1);
    // The name as typed (case-sensitive: the bank's check shows it again in capitals).
    await expect(row.getByText(/Ravi Kumar/)).toHaveCount(1);
    await expect(row.getByText('Verified · RAVI KUMAR')).toHaveCount(1);

    // Home's balance card opens the withdraw form.
    await page.goto(`${base()}/index/home`);
    await page.locator('.balance-card').getByRole('button', { name: 'Withdraw' }).click();
    await withdrawThroughDialog(page, '150');
    const [first] = await withdrawals(user.token);
    expect(first?.state).toBe('pending');

    await page.goto(`${base()}/List4`);
    const paidRow = page.getByRole('article', { name: `Withdrawal #${first?.id} of ₹150.00` });
    await expect(paidRow.locator('.withdrawal-state').getByText('Under review')).toHaveCount(1);
    await expect(paidRow.getByText(/ra•••@okaxis/)).toHaveCount(1);

    // The operator approves; the sandbox gateway pays shortly after and the list follows.
    await admin('/withdraw/review', { id: first?.id, action: 'approve' });
    await page.reload();
    await expect(paidRow.getByText('Payment successful')).toHaveCount(1, { timeout: 20_000 });
    await expect(paidRow.getByText(/^Bank reference: /)).toHaveCount(1);

    await page.goto(`${base()}/List2`);
    await expect(page.getByText('Withdrawal request', { exact: true })).toHaveCount(1);
    await expect(page.getByText('−₹150.00')).toHaveCount(1);

    // A second withdrawal from Profile, rejected with a reason: the reason shows and the hold comes back.
    await page.goto(`${base()}/index/user`);
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await withdrawThroughDialog(page, '100');
    const [second] = await withdrawals(user.token);
    const reason = 'Account name does not match the bank record';
    await admin('/withdraw/review', { id: second?.id, action: 'reject', reason });

    await page.goto(`${base()}/List4`);
    const rejectedRow = page.getByRole('article', { name: `Withdrawal #${second?.id} of ₹100.00` });
    await expect(rejectedRow.locator('.withdrawal-state').getByText('Rejected')).toHaveCount(1);
    await expect(rejectedRow.getByText(`Reason: ${reason}`)).toHaveCount(1);
    await expect(paidRow.getByText('Payment successful')).toHaveCount(1);

    await page.goto(`${base()}/List2`);
    await expect(page.getByText('Withdrawal refund', { exact: true })).toHaveCount(1);
    await expect(page.getByText('+₹100.00')).toHaveCount(1);
    await expect(page.getByText('Withdrawal request', { exact: true })).toHaveCount(2);
    // ₹505 − ₹150 after the first hold, and again once the ₹100 hold came back.
    await expect(page.getByText('Balance ₹355.00')).toHaveCount(2);
    await page.context().close();
  });

  test('edits a payout method to a bank account and deletes it after confirming', async ({ browser }) => {
    const user = await apiRegister(base());
    const page = await loggedInPage(browser, user.token);
    await api(
      'POST',
      '/go_user/api/v1/user/wdaccount/bind',
      { accountNo: 'asha@okicici', accountName: 'Asha' },
      user.token,
    );
    await page.goto(`${base()}/List6`);
    const upi = page.getByRole('article', { name: 'UPI as•••@okicici' });
    await upi.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit payout method' });
    await form.getByRole('radio', { name: 'Bank' }).check({ force: true });
    await form.getByLabel('Bank account number', { exact: true }).fill('1234 5678 9012');
    // The number is typed twice; a slip is caught under the second field.
    await form.getByLabel('Bank account number again').fill('1234 5678 9013');
    await form.getByLabel(/IFSC/).fill('sbin0001234');
    await expect(form.getByText('State Bank of India, branch code 001234')).toHaveCount(1);
    await form.getByLabel('Recipient name').fill('Asha Devi');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(form.getByText('The account numbers do not match')).toHaveCount(1);
    await form.getByLabel('Bank account number again').fill('123456789012');
    await page.getByRole('button', { name: 'Confirm' }).click();
    const bank = page.getByRole('article', { name: 'Bank ••••9012' });
    await expect(bank.getByText(/SBIN0001234/)).toHaveCount(1);

    await bank.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Delete payout method?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No payout methods yet')).toHaveCount(1);
    await page.context().close();
  });
});
