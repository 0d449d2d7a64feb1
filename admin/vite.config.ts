import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../tools/vite-precompress';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  // The server serves this build under /admin/.
  base: '/admin/',
  plugins: [react(), precompress()],
  resolve: {
    // The root node_modules holds a React 18 installed as a peer of hoisted packages; use this workspace's React 19.
    dedupe: ['react', 'react-dom'],
  },
  server: { port: 5174, proxy: { '/go_user': api, '/obj': api, '/docs': api } },
  preview: { port: 5174 },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // The browsers an operator uses know <link rel=modulepreload>; Vite's fallback script is left out.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // contract/ declares schemas, messages and constants only: saying so lets the bundler leave zod and
      // the message catalogues out of chunks that import just a constant (as the app's build does).
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
