import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { makeTemplate } from '../src/db/pglite-template';

/**
 * `npm start` runs this bundle, not the TypeScript through tsx: loading tsx and transforming every
 * module at start cost ~0.3-0.8 s of the cold start here. Packages stay external (node_modules
 * loads them as usual); the contract, which ships TypeScript source, is bundled in.
 */
const server = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(server, 'dist');

await build({
  entryPoints: [join(server, 'src/main.ts')],
  outfile: join(dist, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@kamai/contract': resolve(server, '../contract/src/index.ts') },
  sourcemap: true,
  logLevel: 'warning',
});

// The bundle's import.meta.url is dist/main.js, so the migrations go beside it.
rmSync(join(dist, 'migrations'), { recursive: true, force: true });
cpSync(join(server, 'src/db/migrations'), join(dist, 'migrations'), { recursive: true });

// Migrated with the migrations the bundle carries, which the start checks the stamp against.
if (await makeTemplate(join(dist, 'pglite-template'), join(dist, 'migrations'))) {
  process.stdout.write('server: made the PGlite template (dist/pglite-template)\n');
}
