import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { logLine, runMain, stopMain } from './main-process';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Under the ignored .tmp/, unique per run; started from server/, as `npm run dev` starts the server.
const relative = `.tmp/data-dir-test-${process.pid}`;

afterAll(() => {
  rmSync(join(root, relative), { recursive: true, force: true });
  rmSync(join(root, 'server', relative), { recursive: true, force: true });
});

describe('DATA_DIR', () => {
  it('takes a relative folder from the repository root, whatever folder the server starts in', async () => {
    const run = await runMain({ DATA_DIR: relative }, join(root, 'server'));
    try {
      expect(run.url, run.lines.join('\n')).toBeDefined();
      const ready = run.lines.map(logLine).find((line) => line?.msg === 'ready');
      expect(ready?.dataDir).toBe(join(root, relative));
      expect(existsSync(join(root, relative, 'pglite', 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(root, 'server', relative))).toBe(false);
    } finally {
      await stopMain(run);
    }
  });
});
