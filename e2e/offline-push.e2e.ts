import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { apiRegister, CHROMIUM, PHONE } from './browser';
import { baseUrl } from './env';

const base = baseUrl;

/** A phone-sized context logged in as a new user, on `path`, with the service worker in control. */
async function controlledPage(
  browser: Browser,
  path: string,
  locale?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const { token } = await apiRegister(base());
  await page.goto(`${base()}${path}`);
  await page.evaluate(
    ([value, language]) => {
      localStorage.setItem('kamai.token', value);
      if (language) localStorage.setItem('kamai.locale', language);
    },
    [token, locale ?? ''] as const,
  );
  // Installed (the shell and assets precached) and claiming this page.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.reload();
  return { context, page };
}

test.describe('offline', () => {
  test('opens the app shell offline with a translated "you are offline" state, and works again online', async ({
    browser,
  }) => {
    const { context, page } = await controlledPage(browser, '/index/user');
    const balance = page.locator('.profile-balance-value');
    await expect.poll(() => balance.textContent()).toMatch(/₹/);

    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'You are offline' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('navigation', { name: 'Main navigation' }).isVisible()).toBe(true);
    // Another page of the app, never visited: the shell answers the navigation.
    await page.goto(`${base()}/List1`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'You are offline' }).count()).toBe(1);
    // API answers are not cached: offline, the API fails instead of answering from the cache.
    const api = await page.evaluate(() =>
      fetch('/go_user/api/v1/user/user/detail').then(
        (r) => `answered ${r.status}`,
        () => 'failed',
      ),
    );
    expect(api).toBe('failed');
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.filter((p) => /^\/(go_user|obj|docs|metrics|admin)\b/.test(p))).toEqual([]);

    await context.setOffline(false);
    await page.goto(`${base()}/index/user`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'You are offline' }).count()).toBe(0);
    await expect.poll(() => balance.textContent()).toMatch(/₹/);
    await context.close();
  });

  test('says so in the language the user chose', async ({ browser }) => {
    const { context, page } = await controlledPage(browser, '/index/home', 'hi_IN');
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'आप ऑफ़लाइन हैं' }).count()).toBe(1);
    await context.close();
  });

  test('is installable: Chromium finds the manifest, its icons and the worker without errors', async () => {
    // Installability is judged in a normal profile (Playwright's contexts are incognito, never installable).
    const profile = mkdtempSync(join(tmpdir(), 'kamai-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-component-update', '--disable-sync'],
      viewport: PHONE,
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${base()}/index/home`);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      const cdp = await context.newCDPSession(page);
      const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
      expect(manifest.url).toBe(`${base()}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installability.installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

test.describe('push display', () => {
  test('shows a push delivered to the service worker as a notification', async ({ browser }) => {
    const { context, page } = await controlledPage(browser, '/index/home');
    await context.grantPermissions(['notifications'], { origin: base() });
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      registrations.push(...(event.registrations as { registrationId: string; scopeURL: string }[]));
    });
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${base()}/`)?.registrationId).toBeTruthy();
    const registrationId = registrations.find((r) => r.scopeURL === `${base()}/`)?.registrationId ?? '';

    const message = { title: 'निकासी स्वीकृत', body: '₹200.00 भुगतान के लिए भेजा गया', url: '/List4', tag: 'withdrawal:7' };
    const deliver = (data: string) =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin: base(), registrationId, data });
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data,
        }));
      });
    // Delivered again while nothing shows: DevTools' delivery to a worker it has just woken was once
    // dropped on a loaded CI machine (nothing shown after 10 s). A repeat with the same tag replaces the
    // notification, so what is asserted is the same.
    const deliverUntilShown = (data: string) =>
      expect.poll(
        async () => {
          let now = await shown();
          if (now.length === 0 || now[0]?.title !== JSON.parse(data).title) {
            await deliver(data);
            now = await shown();
          }
          return now;
        },
        { timeout: 20_000 },
      );
    await deliverUntilShown(JSON.stringify(message)).toEqual([
      { title: message.title, body: message.body, tag: message.tag, data: { url: '/List4' } },
    ]);

    // Not JSON, or no title: nothing is shown, nothing breaks.
    // (The push without a title has a tag of its own: shown, it would stay beside the next one. The
    // worker handles pushes in order, so once the next one shows, these two have been handled.)
    await deliver('not json');
    await deliver(JSON.stringify({ body: 'no title', tag: 'no-title' }));
    // A newer push with the same tag replaces the shown one, and it is the only one shown.
    await deliverUntilShown(JSON.stringify({ ...message, title: 'भुगतान सफल' })).toEqual([
      { title: 'भुगतान सफल', body: message.body, tag: message.tag, data: { url: '/List4' } },
    ]);
    await context.close();
  });
});

/**
 * Chromium here cannot reach a real push service (no network: `subscribe()` never answers), so the
 * page's PushManager is replaced by one that hands out a subscription the way Chrome does: an FCM
 * endpoint and a fresh P-256 key with a 16-byte auth secret. Everything after it is real: the
 * switch, the permission, the server's routes and its origin check.
 */
function standInPushService() {
  let current: PushSubscription | null = null;
  const encode = (bytes: ArrayBuffer) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const p256dh = encode(await crypto.subtle.exportKey('raw', pair.publicKey));
    const auth = encode(crypto.getRandomValues(new Uint8Array(16)).buffer);
    const key = String(options?.applicationServerKey ?? '');
    const raw = Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
    const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${crypto.randomUUID()}`;
    const subscription = {
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: raw },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    };
    current = subscription as unknown as PushSubscription;
    return current;
  };
  PushManager.prototype.getSubscription = async () => current;
}

test.describe('push switch', () => {
  test('asks for permission and subscribes this device, and unsubscribes it', async ({ browser }) => {
    const { context, page } = await controlledPage(browser, '/index/user');
    await context.grantPermissions(['notifications'], { origin: base() });
    await page.addInitScript(standInPushService);
    await page.reload();
    const toggle = page.getByRole('switch', { name: /Push notifications/ });
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click();
    // The server's own message (push_subscribed): it accepted the FCM endpoint.
    await expect
      .poll(() => page.locator('.adm-toast-main').filter({ hasText: 'Notifications are on for this device' }).count())
      .toBe(1);
    expect(await toggle.isChecked()).toBe(true);

    await toggle.click();
    await expect
      .poll(() => page.locator('.adm-toast-main').filter({ hasText: 'Notifications are off for this device' }).count())
      .toBe(1);
    expect(await toggle.isChecked()).toBe(false);
    await context.close();
  });

  test('stays off and says why when the browser refuses permission', async ({ browser }) => {
    const { context, page } = await controlledPage(browser, '/index/user');
    const toggle = page.getByRole('switch', { name: /Push notifications/ });
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    // Headless Chromium answers the permission request with "denied" when nothing grants it.
    await toggle.click();
    await expect
      .poll(() =>
        page
          .locator('.adm-toast-main')
          .filter({ hasText: /Notifications are blocked/ })
          .count(),
      )
      .toBe(1);
    expect(await toggle.isChecked()).toBe(false);
    await context.close();
  });
});
