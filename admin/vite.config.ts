import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  // The server serves this build under /admin/.
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // The root node_modules holds a React 18 installed as a peer of hoisted packages; use this workspace's React 19.
    dedupe: ['react', 'react-dom'],
  },
  server: { port: 5174, proxy: { '/go_user': api, '/obj': api, '/docs': api } },
  preview: { port: 5174 },
  build: { outDir: 'dist', assetsDir: 'assets' },
});
