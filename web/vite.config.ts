import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { routes } from '../contract/src/routes';

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
  const endpoints = Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [name, { method: route.method, path: route.path }]),
  );
  return {
    name: 'kamai:contract-endpoints',
    enforce: 'pre',
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

export default defineConfig({
  plugins: [contractEndpointsForApiClient(), pureContractInitialisers(), react()],
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
