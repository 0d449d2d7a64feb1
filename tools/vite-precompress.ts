import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images (png) are compressed already. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) next to every text file of
 * the build, once, so the server sends them as they are (`preCompressed` in
 * server/src/platform/web.ts) instead of compressing on each request or sending them raw. Used by the
 * app's and the console's builds; a build that writes nothing (`build.write: false`, as tests run it)
 * leaves the folder alone.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  let writes = true;
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'kamai:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      writes = config.build.write !== false;
    },
    closeBundle() {
      if (!writes) return;
      for (const file of walk(outDir).filter((name) => COMPRESSIBLE.test(name))) {
        const raw = readFileSync(file);
        if (statSync(file).size < 512) continue;
        const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
