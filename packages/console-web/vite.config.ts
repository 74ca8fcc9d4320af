import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is served by the Gatehouse server at / on the console host (DESIGN section 11), so
// every asset is addressed from the root and hashed for immutable caching. During development
// `npm run dev -w packages/console-web` proxies the API to a server on GATEHOUSE (default :8080).
const api = process.env.GATEHOUSE ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline script or style anywhere: the CSP forbids both.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': api, '/dev': api },
  },
});
