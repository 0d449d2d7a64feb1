import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { baseUrl, firstAdmin, logFile, SECOND_ADMIN } from './env';

export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium (Playwright's own downloads are not used) and the flags it runs with here. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  return context.newPage();
}

/** The code the sandbox sender wrote to the server's log for `target` (newest first). */
export async function codeFromLog(target: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    // The server may be writing its last line as we read: only whole lines (ending in a newline) count.
    const lines = readFileSync(logFile(), 'utf8').split('\n').slice(0, -1).reverse();
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      let entry: { msg?: string; target?: string; code?: string };
      try {
        entry = JSON.parse(line);
      } catch {
        continue; // a line another writer interleaved with
      }
      if (entry.msg === 'otp.sandbox' && entry.target === target && entry.code) return entry.code;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no sandbox code for ${target} in the server log`);
}

let counter = 0;
/** A fresh Indian mobile number for this run. */
export function uniquePhone(): string {
  counter += 1;
  return `7${String(Date.now() % 1e5).padStart(5, '0')}${String(counter).padStart(4, '0')}`;
}

/** Registers and logs in through the API (tests of other screens do not click through the login form). */
export async function apiRegister(
  baseUrl: string,
  inviteCode = firstAdmin().inviteCode,
): Promise<{ username: string; token: string; password: string }> {
  const phone = uniquePhone();
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ code: number; data: { token: string } }>);
  await post('/go_user/api/v1/common/otp/send', { target: phone, type: 1 });
  const password = 'secret123';
  const res = await post('/go_user/api/v1/common/user/register', {
    username: phone,
    password,
    password2: password,
    verifyCode: await codeFromLog(`91${phone}`),
    inviteCode,
  });
  if (res.code !== 200) throw new Error(`register failed: ${JSON.stringify(res)}`);
  return { username: `91${phone}`, token: res.data.token, password };
}

/**
 * One API call from a test, `path` from the server's root: the envelope's data, or an error naming the call
 * and the whole envelope (a test that sets up through the API should stop at the first refusal). `base` is
 * the suite's server unless a test started its own.
 */
export async function apiCall<T>(
  method: string,
  path: string,
  body: unknown,
  token: string | null | undefined,
  base = baseUrl(),
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
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
}

/**
 * An operator change as the console makes it under dual control: `token`'s admin proposes it; when the
 * answer says it waits for a second admin, the server's second admin (SECOND_ADMIN) applies it.
 * Answers the route's data.
 */
export async function controlled<T>(path: string, body: unknown, token: string, base = baseUrl()): Promise<T> {
  const data = await apiCall<T & { change?: { id: number; state: string } | null }>('POST', path, body, token, base);
  if (data.change?.state !== 'pending') return data;
  const login = { username: SECOND_ADMIN.username, password: SECOND_ADMIN.password };
  const second = await apiCall<{ token: string }>('POST', '/go_user/api/v1/common/user/login', login, null, base);
  await apiCall('POST', '/go_user/api/v1/admin/control/apply', { id: data.change.id }, second.token, base);
  return data;
}
