import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, runnerImport } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = 'http://127.0.0.1:8080';
const proxy = { '/go_user': api, '/obj': api, '/docs': api };

/**
 * The browser's API client reads only the method and path of a contract route (the server checks
 * bodies and answers against the zod schemas). The route table itself holds every schema, so
 * importing it would put zod and all of contract's schemas (~50 KB gzip) on the first page. For the
 * client module only, `@kamai/contract` resolves to the contract with `routes` replaced by its
 * method/path projection, computed here from the real table (one source of truth). An explicit
 * export wins over `export *`, so every other name is contract's own.
 */
function contractEndpointsForApiClient(): Plugin {
  const id = '\0kamai:contract-endpoints';
  let endpoints: Record<string, { method: string; path: string }> = {};
  return {
    name: 'kamai:contract-endpoints',
    enforce: 'pre',
    async buildStart() {
      const contract = resolve(import.meta.dirname, '../contract/src/routes.ts');
      const { module } = await runnerImport<typeof import('../contract/src/routes')>(contract);
      endpoints = Object.fromEntries(
        Object.entries(module.routes).map(([name, route]) => [name, { method: route.method, path: route.path }]),
      );
    },
    resolveId(source, importer) {
      if (source === '@kamai/contract' && importer && /[\\/]api-client\.ts$/.test(importer)) return id;
      return null;
    },
    load(loaded) {
      if (loaded !== id) return null;
      return `export * from '@kamai/contract';\nexport const routes = ${JSON.stringify(endpoints)};\n`;
    },
  };
}

/**
 * contract/ builds its zod schemas at module level (`const x = z.object(...).refine(...)`). A chained
 * call is not provably pure, so a page that imports only a constant of such a module (Home needs
 * `TASK_SECTIONS` from contract/src/tasks.ts) would still pull zod and every schema of the module.
 * In the browser bundle each top-level initialiser of a contract module is wrapped in an IIFE marked
 * `@__PURE__`: evaluated exactly as before when the value is used, left out when nothing uses it.
 */
function pureContractInitialisers(): Plugin {
  return {
    name: 'kamai:pure-contract-initialisers',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]contract[\\/]src[\\/][^?]*\.ts$/.test(id)) return null;
      const program = this.parse(code) as unknown as { body: Statement[] };
      const inits: { start: number; end: number }[] = [];
      for (const statement of program.body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const declarator of declaration.declarations ?? []) {
          const init = declarator.init;
          if (init && !PURE_ALREADY.has(init.type)) inits.push(init);
        }
      }
      if (inits.length === 0) return null;
      let out = code;
      for (const init of inits.reverse()) {
        out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => (${out.slice(init.start, init.end)}))()${out.slice(init.end)}`;
      }
      return { code: out, map: null };
    },
  };
}

interface Node {
  type: string;
  start: number;
  end: number;
}
interface Statement extends Node {
  declaration?: Statement | null;
  declarations?: { init?: Node | null }[];
}
/** Initialisers the bundler already knows to be free of side effects. */
const PURE_ALREADY = new Set([
  'Literal',
  'ArrowFunctionExpression',
  'FunctionExpression',
  'Identifier',
  'TemplateLiteral',
]);

/** Text files worth compressing; images (png) are compressed already. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) next to every text file of
 * the build, once, so the server sends them as they are (`preCompressed` in
 * server/src/platform/web.ts) instead of compressing on each request or sending them raw.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'kamai:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
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

/**
 * The service worker (web/sw/sw.ts, Workbox): precaches the shell and every hashed file of this build,
 * so the app opens offline and a new deploy replaces the old files as one set. Registered by
 * src/app/service-worker.ts; web/public/manifest.webmanifest is the app manifest.
 */
const serviceWorker = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  injectRegister: false,
  manifest: false,
  injectManifest: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
    // Install-time icons are fetched by the browser when it installs the app, not needed offline.
    globIgnores: [
      '**/*.br',
      '**/*.gz',
      'sw.js',
      'icons/icon-512.png',
      'icons/icon-maskable-512.png',
      'icons/apple-touch-icon.png',
    ],
  },
  devOptions: { enabled: false },
});

export default defineConfig({
  plugins: [contractEndpointsForApiClient(), pureContractInitialisers(), react(), serviceWorker, precompress()],
  resolve: {
    // The root node_modules holds a React 18 that npm installed as a peer of hoisted packages
    // (antd-mobile, react-query); every import of React must resolve to this workspace's React 19.
    dedupe: ['react', 'react-dom'],
  },
  server: { port: 5173, proxy },
  preview: { port: 5173, proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    rolldownOptions: {
      // contract/ declares schemas, messages and constants only; saying so lets the bundler leave zod and
      // the six message catalogues out of chunks that import just a constant or a locale helper.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
