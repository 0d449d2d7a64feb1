import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://127.0.0.1:8080';
const proxy = { '/go_user': api, '/obj': api, '/docs': api };

export default defineConfig({
  plugins: [react()],
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
      treeshake: { moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
    },
  },
});
