import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each server test file gets its own database; two workers suit a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'contract/src/**/*.test.ts',
            'client/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'admin/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'tools/*.test.mjs',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          // React components in a DOM (happy-dom): web's and the console's `*.test.tsx`.
          name: 'components',
          include: ['web/src/**/*.test.tsx', 'admin/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['vitest.no-network.ts'],
          // antd renders slowly in happy-dom on a loaded 2-core machine.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          // A loaded CI machine ran fuzz.test.ts 7 times slower than a quiet one (162 s against 22 s).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
