import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTemplate } from '../src/db/pglite-template';
import { bundleServer } from './bundle-server';

/**
 * `npm start` runs this bundle, not the TypeScript through tsx: loading tsx and transforming every
 * module at start cost ~0.3-0.8 s of the cold start here.
 */
const server = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(server, 'dist');

// The bundle's import.meta.url is dist/main.js, so the migrations go beside it.
const migrations = await bundleServer(join(dist, 'main.js'));

// Migrated with the migrations the bundle carries, which the start checks the stamp against.
if (await makeTemplate(join(dist, 'pglite-template'), migrations)) {
  process.stdout.write('server: made the PGlite template (dist/pglite-template)\n');
}
