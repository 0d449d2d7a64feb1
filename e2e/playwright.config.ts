import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './browser';

/**
 * The end-to-end suite: Playwright's runner driving Debian's Chromium (no downloaded browsers) against
 * one real server the global set-up starts. One worker: a 2-core machine, and the tests share the server.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  globalSetup: './global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  timeout: 90_000,
  // Auto-waiting assertions give up after this long; a loaded machine (CI shares it) needs a server
  // round trip and a React render, and a passing assertion returns as soon as it holds.
  expect: { timeout: 10_000 },
  outputDir: '../.tmp/e2e-results',
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: '../.tmp/e2e-report' }]] : 'list',
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    // A failing test leaves a trace (DOM snapshots, network, console): `npx playwright show-trace <zip>`.
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
