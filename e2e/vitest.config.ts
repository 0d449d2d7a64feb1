import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default; a loaded 2-core machine (CI shares it) needs longer for a
    // server round trip and a React render, and a passing poll returns as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    // One browser at a time on a 2-core machine; the tests share one server.
    fileParallelism: false,
  },
});
