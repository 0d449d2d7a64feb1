// Registers by phone through the MSG91 fake (docs/decisions/sms-delivery.md): the server runs with SMS_PROVIDER=msg91
// and
// MSG91_BASE_URL pointing at a local fake that follows MSG91's SendOTP API; the test reads the code from
// what the fake received, as a phone would show it, and MSG91's delivery report then marks it delivered.
import { expect, test } from '@playwright/test';
import { codeSmsText } from '../server/src/features/otp/otp.senders';
import { type Msg91Fake, startMsg91Fake } from '../server/test/sms-fakes';
import { phonePage, uniquePhone } from './browser';
import { type RunningServer, startServer } from './server';

const AUTHKEY = 'e2e-msg91-authkey-0001';
const TEMPLATE = '65a0e2e0000000000000aa01';
const REPORT_TOKEN = 'e2e-report-token-abcdefghijklmnop';

let msg91: Msg91Fake;
let server: RunningServer;

test.beforeAll(async () => {
  // The OTP template as docs/operations.md registers it, bound to the host the browser opens the app
  // at: the fake renders the SMS a phone would receive.
  msg91 = await startMsg91Fake({
    authkey: AUTHKEY,
    templates: [TEMPLATE],
    texts: { [TEMPLATE]: codeSmsText('en_US', '##OTP##', '127.0.0.1') },
  });
  server = await startServer({
    SMS_PROVIDER: 'msg91',
    MSG91_AUTH_KEY: AUTHKEY,
    MSG91_OTP_TEMPLATE_ID: TEMPLATE,
    MSG91_BASE_URL: msg91.url,
    MSG91_REPORT_TOKEN: REPORT_TOKEN,
    INVITE_CODE_REQUIRED: 'false',
  });
});
test.afterAll(async () => {
  await server?.stop();
  await msg91?.close();
});

/**
 * A browser with WebOTP as Chrome on Android has it, the phone's SMS app played by the test:
 * `navigator.credentials.get({ otp })` waits until `deliverSms(text)` hands it an SMS whose last line
 * binds it to this page's host (`@<host> #<code>`), as the browser does, or until the page aborts it.
 */
function webOtpBrowser() {
  const state = { calls: 0, transports: [] as string[], pending: 0, aborted: 0, resolved: 0 };
  const waits: ((text: string) => void)[] = [];
  Object.assign(window, {
    OTPCredential: class OTPCredential {},
    webOtp: state,
    deliverSms(text: string) {
      const bound = /\n@([^\s]+) #([A-Za-z0-9]+)$/.exec(text);
      if (bound?.[1] !== location.hostname) return;
      for (const wait of [...waits]) wait(bound[2] ?? '');
    },
  });
  const credentials = navigator.credentials ?? ({} as CredentialsContainer);
  const original = credentials.get?.bind(credentials);
  credentials.get = (options?: CredentialRequestOptions & { otp?: { transport: string[] } }) => {
    if (!options?.otp) return original ? original(options) : Promise.resolve(null);
    state.calls += 1;
    state.transports.push(...options.otp.transport);
    state.pending += 1;
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = () => {
        settled = true;
        state.pending -= 1;
        waits.splice(waits.indexOf(wait), 1);
      };
      const wait = (code: string) => {
        settle();
        state.resolved += 1;
        resolve({ id: '', type: 'otp', code } as unknown as Credential);
      };
      waits.push(wait);
      options.signal?.addEventListener('abort', () => {
        if (settled) return;
        settle();
        state.aborted += 1;
        reject(new DOMException('The operation was aborted.', 'AbortError'));
      });
    });
  };
  if (!navigator.credentials) Object.defineProperty(navigator, 'credentials', { value: credentials });
}

/** A browser without WebOTP (Safari, Firefox, desktop): the page must not ask for an SMS code. */
function noWebOtpBrowser() {
  const state = { otpCalls: 0 };
  Reflect.deleteProperty(window, 'OTPCredential');
  Object.assign(window, { webOtp: state });
  const credentials = navigator.credentials;
  if (!credentials) return;
  const original = credentials.get.bind(credentials);
  credentials.get = (options?: CredentialRequestOptions & { otp?: unknown }) => {
    if (options?.otp) state.otpCalls += 1;
    return original(options);
  };
}

type WebOtpState = { calls: number; transports: string[]; pending: number; aborted: number; resolved: number };

test.describe('phone sign-up through MSG91', () => {
  test('WebOTP: the code of the SMS bound to this host fills the field, and registration goes through', async ({
    browser,
  }) => {
    const page = await phonePage(browser);
    await page.addInitScript(webOtpBrowser);
    const webOtp = () => page.evaluate(() => (window as unknown as { webOtp: WebOtpState }).webOtp);
    const deliverSms = (text: string) =>
      page.evaluate((t) => (window as unknown as { deliverSms: (text: string) => void }).deliverSms(t), text);
    await page.goto(`${server.url}/index/user`);
    const form = page.getByRole('dialog');
    await form.waitFor();
    await form.getByRole('tab', { name: 'Register' }).click();
    const codeField = form.getByLabel('Verification code');
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await expect.poll(async () => (await webOtp()).pending).toBe(1);
    expect([...new Set((await webOtp()).transports)]).toEqual(['sms']);

    const phone = uniquePhone();
    await form.getByLabel('Mobile number').fill(phone);
    const sendCode = form.getByRole('button', { name: 'Send code' });
    await expect.poll(() => sendCode.isEnabled()).toBe(true);
    await sendCode.click();
    await expect.poll(() => msg91.sent.filter((s) => s.mobile === `91${phone}`).length).toBe(1);
    const sms = msg91.sent.find((s) => s.mobile === `91${phone}`);
    const code = msg91.lastCodeFor(`91${phone}`);
    expect(sms?.text?.split('\n').at(-1)).toBe(`@127.0.0.1 #${code}`);

    // An SMS bound to another site is not offered to this page; the one bound to this host is.
    await deliverSms(`Your code is 999999.\n\n@evil.example #999999`);
    await expect(codeField).toHaveValue('');
    await deliverSms(sms?.text ?? '');
    await expect(codeField).toHaveValue(code);
    expect(await webOtp()).toMatchObject({ resolved: 1, pending: 0 });

    await form.getByLabel('Password', { exact: true }).fill('secret123');
    await form.getByLabel('Confirm password').fill('secret123');
    const invite = /invite code:\s+(\S+)/.exec(server.lines.join('\n'))?.[1] ?? '';
    await form.getByLabel('Invite code').fill(invite);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByText('Registration successful').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(`91${phone}`).count()).toBeGreaterThan(0);
    // Whatever wait the form started again (after the fill, while it was sent) ended with the form.
    await expect.poll(async () => (await webOtp()).pending).toBe(0);
    await page.context().close();
  });

  test('registers with the code MSG91 delivered; the code is in no log; the delivery report lands', async ({
    browser,
  }) => {
    const page = await phonePage(browser);
    // No WebOTP in this browser: the code is typed, and the page never asks the browser for one.
    await page.addInitScript(noWebOtpBrowser);
    await page.goto(`${server.url}/index/user`);
    const form = page.getByRole('dialog');
    await form.waitFor();
    await form.getByRole('tab', { name: 'Register' }).click();

    const phone = uniquePhone();
    await form.getByLabel('Mobile number').fill(phone);
    const sendCode = form.getByRole('button', { name: 'Send code' });
    await expect.poll(() => sendCode.isEnabled()).toBe(true);
    await sendCode.click();
    await expect.poll(() => msg91.sent.filter((s) => s.mobile === `91${phone}`).length).toBe(1);
    const request = msg91.requests.find((r) => r.query.get('mobile') === `91${phone}`);
    expect(request?.headers.authkey).toBe(AUTHKEY);
    expect(request?.query.get('template_id')).toBe(TEMPLATE);
    const code = msg91.lastCodeFor(`91${phone}`);

    await form.getByLabel('Verification code').fill(code);
    await form.getByLabel('Password', { exact: true }).fill('secret123');
    await form.getByLabel('Confirm password').fill('secret123');
    // The web form asks for an invite code whatever the server's setting (docs/decisions/web-app-shell.md).
    const invite = /invite code:\s+(\S+)/.exec(server.lines.join('\n'))?.[1] ?? '';
    await form.getByLabel('Invite code').fill(invite);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByText(`91${phone}`).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('Registration successful').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { webOtp: { otpCalls: number } }).webOtp.otpCalls)).toBe(0);
    await page.context().close();

    // A real sender writes no sandbox line: the code appears nowhere in the server's output.
    expect(server.lines.some((line) => line.includes(code) && line.includes(`91${phone}`))).toBe(false);

    // MSG91 posts its delivery report (v2 form) to the URL registered with the token.
    const sent = msg91.sent.find((s) => s.mobile === `91${phone}`);
    const report = await fetch(`${server.url}/go_user/api/v1/common/sms/report/msg91?token=${REPORT_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        data: JSON.stringify([
          { requestId: sent?.requestId, report: [{ number: `91${phone}`, status: '1', desc: 'DELIVERED' }] },
        ]),
      }),
    });
    expect(report.status).toBe(200);
    expect((await report.json()).data).toEqual({ updated: 1 });
    const forged = await fetch(`${server.url}/go_user/api/v1/common/sms/report/msg91`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: sent?.requestId, status: '2' }),
    });
    expect(forged.status).toBe(401);

    // The console shows the delivery status per target.
    const output = server.lines.join('\n');
    const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const admin = await desk.newPage();
    await admin.goto(`${server.url}/admin/`);
    await admin.getByLabel('Phone number or e-mail').fill(field('username'));
    await admin.getByLabel('Password').fill(field('password'));
    await admin.getByRole('button', { name: 'Log in' }).click();
    await admin.getByRole('menuitem', { name: 'Code deliveries' }).click();
    await admin.getByLabel('Sent to').fill(`91${phone}`);
    await admin.getByLabel('Sent to').press('Enter');
    const row = admin.getByRole('row', { name: new RegExp(`91${phone}`) });
    await expect.poll(() => row.getByText('Delivered').count()).toBe(1);
    expect(await row.getByText('msg91').count()).toBe(1);
    await desk.close();
  });
});
