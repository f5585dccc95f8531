import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// In `npm run dev` the embedded backend listens on BACKEND_URL and Vite proxies the API paths
// (and /config.json) to it, so the browser sees one origin as it does with `npm start`.
const backend = process.env.BACKEND_URL ?? 'http://localhost:54321';
const proxied = [
  '/auth/v1',
  '/rest/v1',
  '/storage/v1',
  '/functions/v1',
  '/preview/v1',
  '/config.json',
];

const stub = (file: string) => fileURLToPath(new URL(`src/lib/stubs/${file}`, import.meta.url));

/**
 * Modules inside auth-js that Steward never runs (passkeys, Ethereum sign-in), replaced by
 * small stand-ins like the aliases below. They are imported with relative paths, so they are
 * matched by their importer rather than by an alias.
 */
function stubUnusedAuthModules(): Plugin {
  const stubs: Record<string, string> = {
    './lib/webauthn': stub('auth-passkeys.ts'),
    './lib/web3/ethereum': stub('auth-web3.ts'),
  };
  return {
    name: 'steward:stub-unused-auth-modules',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.includes('/@supabase/auth-js/') && source in stubs) return stubs[source];
      return null;
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), stubUnusedAuthModules()],
  resolve: {
    // Parts of supabase-js the app never uses, replaced by small stand-ins to keep the download
    // within the performance budget (src/lib/stubs explains each).
    alias: {
      '@supabase/realtime-js': stub('realtime-js.ts'),
      'iceberg-js': stub('iceberg-js.ts'),
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
