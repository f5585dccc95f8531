import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// In `npm run dev` the embedded backend listens on BACKEND_URL and Vite proxies the API paths
// (and /config.json) to it, so the browser sees one origin as it does with `npm start`.
const backend = process.env.BACKEND_URL ?? 'http://localhost:54321';
const proxied = ['/auth/v1', '/rest/v1', '/storage/v1', '/functions/v1', '/config.json'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // Parts of supabase-js the app never uses, replaced by small stand-ins to keep the download
    // within the performance budget (src/lib/stubs explains each).
    alias: {
      '@supabase/realtime-js': fileURLToPath(
        new URL('src/lib/stubs/realtime-js.ts', import.meta.url),
      ),
      'iceberg-js': fileURLToPath(new URL('src/lib/stubs/iceberg-js.ts', import.meta.url)),
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: backend }])),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json maps each source module to its chunks: the bundle budget reads it.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});
