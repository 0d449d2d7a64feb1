/**
 * Looks at the app the way a user does: starts the real server on a fresh database, registers a
 * user through the API and saves phone-sized (390×844) screenshots of every route in each locale.
 * Run: `npx tsx e2e/screenshots.ts [outDir] [en_US,hi_IN,...]` after `npm run build`; open the PNGs.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LOCALES } from '@kamai/contract';
import { chromium } from 'playwright-core';
import { startServer } from './server';

const out = resolve(process.argv[2] ?? '.tmp/screens-real');
/** Locales to shoot, comma-separated in the second argument (default: all six). */
const locales = (process.argv[3] ?? LOCALES.join(',')).split(',');
const ROUTES = [
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
];

async function main() {
  mkdirSync(out, { recursive: true });
  const server = await startServer();
  const invite = /invite code:\s+(\S+)/.exec(server.lines.join('\n'))?.[1];
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
