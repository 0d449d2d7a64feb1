import { preact } from '@preact/preset-vite';
import type { Plugin, PluginOption } from 'vite';

/**
 * The web app renders with Preact 10 through preact/compat, in development, in its component tests and
 * in production alike (docs/decisions.md, "preact"); the console (admin/) stays on React.
 *
 * `@preact/preset-vite` aliases `react`, `react-dom` (with `/client` and `/test-utils`) and
 * `react/jsx-runtime` to preact/compat for our code and every dependency, compiles JSX for Preact and
 * gives the dev server Prefresh in place of React's Fast Refresh. Two CommonJS modules that import React
 * are pointed at what they stand for, so that no copy of React can load beside Preact where a tool runs
 * CommonJS through Node's own `require` (Vitest does, for packages it does not transform):
 * `use-sync-external-store/shim` (react-i18next, antd-mobile) is React's `useSyncExternalStore`, which
 * preact/compat has; `rc-util/lib/*` (antd-mobile) has the same modules as ES modules in `rc-util/es/*`.
 */
export function preactCompat(options: { refresh?: boolean } = {}): PluginOption[] {
  const aliases: Plugin = {
    name: 'kamai:preact-compat-aliases',
    config: () => ({
      resolve: {
        alias: [
          { find: /^use-sync-external-store\/shim(?:\/index\.js)?$/, replacement: 'preact/compat' },
          { find: /^rc-util\/lib\/(.*)$/, replacement: 'rc-util/es/$1' },
        ],
      },
    }),
  };
  // Tests have no page to refresh and no devtools to talk to; the preset decides the rest.
  const preset = options.refresh === false ? preact({ prefreshEnabled: false, devToolsEnabled: false }) : preact();
  return [preset, aliases];
}
