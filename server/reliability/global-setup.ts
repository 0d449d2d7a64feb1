import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleServer } from '../scripts/bundle-server';

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundle: string;
  }
}

const server = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles `src/main.ts` once per run, as `npm run build` does for `npm start`, so the suite starts what
 * ships and each of its many server starts skips tsx's loader (about half the cold start on a busy
 * machine). The bundle sits in server/.tmp/ (ignored by git), one level below server/ like dist/main.js,
 * so the paths it derives from its own location (the repository root, migrations/) hold.
 */
export default async function setup(project: TestProject) {
  const dir = join(server, '.tmp');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `reliability-${process.pid}.js`);
  await bundleServer(outfile);
  project.provide('serverBundle', outfile);
  return () => {
    rmSync(outfile, { force: true });
    rmSync(`${outfile}.map`, { force: true });
  };
}
