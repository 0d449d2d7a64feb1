import { expect, test } from '@playwright/test';
import { baseUrl } from './env';
import { startServer } from './server';

test.describe('the running server', () => {
  test('serves the app with a strict CSP, SPA fallback and long-cached hashed assets', async () => {
    const base = baseUrl();
    const page = await fetch(`${base}/List3`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${base}${asset}`);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const admin = await fetch(`${base}/admin/`);
    expect(admin.status).toBe(200);
    const api404 = await fetch(`${base}/go_user/api/v1/user/none`);
    expect(await api404.json()).toMatchObject({ code: 404, key: 'route_not_found' });
  });

  test('shuts down cleanly on SIGTERM', async () => {
    const server = await startServer();
    const exited = new Promise<number | null>((done) => server.child.once('exit', (code) => done(code)));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(server.lines.some((line) => line.includes('shutting down'))).toBe(true);
  });

  test('refuses to start with a bad variable and names it', async () => {
    await expect(startServer({ PORT: 'eighty' })).rejects.toThrow(/PORT: must be a port number/);
  });
});
