import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from '../tools/vite-precompress';

const api = 'http://127.0.0.1:8080';
const proxy = { '/go_user': api, '/obj': api, '/docs': api };

/**
 * antd-mobile-icons as drawn, in fewer bytes: each icon is Sketch's export (a group per layer with an
 * `id`, a transparent 48×48 rectangle, path numbers with seven decimals). This drops the ids and the
 * invisible rectangle and rounds the path to 1/100 of the 48-unit box (under 0.01 px at icon size);
 * the first page's six icons weigh 1.7 KB gzip less. Whatever the plugin does not recognise is kept.
 */
function compactIcons(): Plugin {
  const rect =
    /,\s*\/\*#__PURE__\*\/React\.createElement\("rect", \{\s*id: "[^"]*",\s*fill: "#FFFFFF",\s*opacity: 0,\s*x: 0,\s*y: 0,\s*width: 48,\s*height: 48\s*\}\)/g;
  return {
    name: 'kamai:compact-icons',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]antd-mobile-icons[\\/]es[\\/][A-Z]\w+\.js$/.test(id)) return null;
      return code
        .replace(rect, '')
        .replace(/\s*id: "[^"]*",/g, '')
        .replace(/\{\s*id: "[^"]*"\s*\}/g, 'null')
        .replace(
          /d: "([^"]+)"/g,
          (_whole, d: string) => `d: "${d.replace(/-?\d+\.\d+/g, (n) => String(Math.round(Number(n) * 100) / 100))}"`,
        );
    },
  };
}

/**
 * antd-mobile's global stylesheet (`es/global/global.css`, loaded by `antd-mobile/es/global`) declares
 * every theme variable twice (light and a dark theme the app never switches on) and body/link rules
 * that app/styles.css sets again. app/styles.css carries the variables antd-mobile's scripts read, with
 * our values, and the few global rules its components need; this plugin leaves the original empty (−2 KB).
 * Its `index.js` (a touchstart listener for `:active` on iOS) still runs.
 *
 * The stylesheets of the components in `ANTD_CUT` are replaced the same way by src/app/antd/NAME.css:
 * the original cut to the colours, sizes, positions and parts the app uses (the theme's sizes written as
 * values), loaded at the original's place in the cascade (−1.9 KB). Using a prop of one of them that the cut version leaves out (a Button
 * colour, a Popup position, a close icon) needs its rule back in that file.
 */
const ANTD_CSS = /[\\/]antd-mobile[\\/]es[\\/](?:global[\\/]global|components[\\/][\w-]+[\\/]([\w-]+))\.css$/;
const ANTD_CUT = new Set(['button', 'popup', 'center-popup', 'toast', 'infinite-scroll', 'tag', 'spin-loading']);

/**
 * antd-mobile's config provider starts from its Chinese texts (`es/locales/zh-CN.js`); the app replaces
 * them with English and its own catalogue before the first render (src/i18n/antd-locale.ts), so the
 * Chinese module is loaded as the English one and stays off the first route.
 */
const ANTD_ZH_CN = /[\\/]antd-mobile[\\/]es[\\/]locales[\\/]zh-CN\.js$/;

function antdGlobal(): Plugin {
  return {
    name: 'kamai:antd-global',
    enforce: 'pre',
    load(id) {
      if (ANTD_ZH_CN.test(id)) return "export { default } from './en-US';";
      const match = ANTD_CSS.exec(id);
      if (!match) return null;
      const name = match[1];
      if (name === undefined) return '';
      return ANTD_CUT.has(name) ? readFileSync(resolve(import.meta.dirname, `src/app/antd/${name}.css`), 'utf8') : null;
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
  plugins: [react(), antdGlobal(), compactIcons(), serviceWorker, precompress()],
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
    // Every browser the app supports (Chrome 66+, Safari 17+, Firefox 115+) knows <link rel=modulepreload>;
    // Vite's fallback script for older ones is left out of the first chunk.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // contract/ declares schemas, messages and constants only; saying so lets the bundler leave zod and
      // the six message catalogues out of chunks that import just a constant or a locale helper.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
