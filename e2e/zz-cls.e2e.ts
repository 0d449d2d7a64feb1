import { test } from '@playwright/test';
import { apiCall, apiRegister } from './browser';
import { baseUrl, firstAdmin } from './env';

const API = '/go_user/api/v1';
test('cls probe', async ({ browser }) => {
  const admin = (await apiCall<{ token: string }>('POST', `${API}/common/user/login`, { username: firstAdmin().username, password: firstAdmin().password }, null)).token;
  const user = await apiRegister(baseUrl());
  const me = await apiCall<{ id: number }>('GET', `${API}/user/user/detail`, undefined, user.token);
  await apiCall('POST', `${API}/admin/revenue/add`, { userId: me.id, amount: '900', remark: 'e2e queue' }, admin);
  await apiCall('POST', `${API}/user/wdaccount/bind`, { accountType: 'bank', accountNo: '501001234567', ifsc: 'HDFC0001234', accountName: 'Meera Patel' }, user.token);
  for (let i = 0; i < 3; i++) await apiCall('POST', `${API}/user/withdraw/add`, { amount: '150' }, user.token);
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/admin/`);
  await page.screenshot({ path: '/tmp/hc/login.png' });
  await page.evaluate((t) => localStorage.setItem('kamai.admin.token', t), admin);
  await page.addInitScript(() => {
    (window as unknown as { shifts: unknown[] }).shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; sources: { node?: Node; previousRect: DOMRect; currentRect: DOMRect }[] }[]) {
        (window as unknown as { shifts: unknown[] }).shifts.push({ value: e.value, t: (e as unknown as PerformanceEntry).startTime, sources: e.sources.map((s) => ({ node: s.node instanceof Element ? `${s.node.tagName}.${s.node.className}`.slice(0, 120) : String(s.node?.nodeName), prev: JSON.stringify(s.previousRect), cur: JSON.stringify(s.currentRect) })) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${baseUrl()}/admin/#/withdrawals?state=pending`);
  await page.reload();
  await page.locator('.row-card').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2000);
  console.log(JSON.stringify(await page.evaluate(() => (window as unknown as { shifts: unknown[] }).shifts), null, 1));
  await page.screenshot({ path: '/tmp/hc/queue.png' });
  await page.goto(`${baseUrl()}/admin/#/withdrawals?state=pending`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await page.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/hc/queue-wide.png' });
});
