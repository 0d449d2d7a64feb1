import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const server = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The password hashing pools' worker and the common-password list (platform/). */
const PLATFORM_FILES = ['hash-worker.mjs', 'common-passwords.txt'];

/**
 * Bundles `src/main.ts` into `outfile` with the migrations and the database functions beside it
 * (`dirname(outfile)/migrations`, `dirname(outfile)/functions`) and PLATFORM_FILES:
 * the bundle finds them, and the repository root, from its own location, so `outfile` must sit one
 * level below server/ (dist/, .tmp/). Packages stay external (node_modules loads them as usual); the
 * contract, which ships TypeScript source, is bundled in. `npm run build` and the reliability suite
 * both start what this makes.
 */
export async function bundleServer(outfile: string) {
  await build({
    entryPoints: [join(server, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@kamai/contract': resolve(server, '../contract/src/index.ts') },
    sourcemap: true,
    logLevel: 'warning',
  });
  const migrations = join(dirname(outfile), 'migrations');
  rmSync(migrations, { recursive: true, force: true });
  cpSync(join(server, 'src/db/migrations'), migrations, { recursive: true });
  const functions = join(dirname(outfile), 'functions');
  rmSync(functions, { recursive: true, force: true });
  cpSync(join(server, 'src/db/functions'), functions, { recursive: true });
  // Loaded by URL from beside the module that names them, which in the bundle is `outfile`.
  for (const file of PLATFORM_FILES) cpSync(join(server, 'src/platform', file), join(dirname(outfile), file));
  return migrations;
}
