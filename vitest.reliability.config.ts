import { defineConfig } from 'vitest/config';

/**
 * The reliability suite (docs/decisions/reliability-suite.md): real server processes and fault injection against a
 * PostgreSQL
 * server and Redis. `npm run test:reliability` with DATABASE_URL (and REDIS_URL, default the local
 * Redis); skipped without them unless CI=true. One file at a time: each starts its own servers.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    include: ['server/reliability/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    // The server bundled once (what `npm start` runs); cluster.ts starts its processes from it.
    globalSetup: ['server/reliability/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
