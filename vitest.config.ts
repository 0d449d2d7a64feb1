import { defineConfig } from 'vitest/config';
import { preactCompat } from './web/preact-compat';

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
          ],
          environment: 'node',
        },
      },
      {
        // Web's components in a DOM (happy-dom), rendered by Preact as in the app (web/preact-compat.ts).
        // Vitest hands packages it does not transform to Node, which would load React for them: here every
        // package goes through Vite and its aliases, @testing-library/react as its ES module build.
        plugins: preactCompat({ refresh: false }),
        resolve: { mainFields: ['module', 'main'] },
        test: {
          name: 'components-web',
          include: ['web/src/**/*.test.tsx'],
          environment: 'happy-dom',
          server: { deps: { inline: true } },
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // The console's components in a DOM (happy-dom), on React 19.
          name: 'components-admin',
          include: ['admin/src/**/*.test.tsx'],
          environment: 'happy-dom',
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
