import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { prerender } from './prerender.ts';
import { pwaOptions, storefrontShell } from './pwa.config.ts';

// reactfire imports firestore, database, storage, functions and remote-config at its top level.
// The storefront uses only its Firestore hooks, and only on the live pages (orders, a book's stock,
// loaded lazily); the auth chunk does not import reactfire at all (features/auth/auth-bridge.tsx).
// The unused packages are declared free of side effects and dropped; Firestore is in the list too
// (reactfire's import of it alone keeps nothing), and the live pages' own use of it keeps it whole,
// its registration included. (firebase/database would still ride along: reactfire's top level keeps
// its functions in a frozen table; the alias below replaces it.)
const UNUSED_FIREBASE = /node_modules\/(?:@firebase\/(?:firestore|database|storage|functions|remote-config|performance|analytics|app-check|messaging|installations)|firebase\/(?:firestore|database|storage|functions|remote-config|performance|analytics|app-check|messaging|installations))/;

/**
 * release.json: `{ "release": <hash of every file the build emits> }`. Same sources, same id. The
 * function bundle carries a copy (functions/build.mjs) with the page frames it fills in, so the
 * frames' build and the Hosting upload can be compared (decision 016).
 */
function releaseStamp(): Plugin {
  return {
    name: 'bookstore-release-stamp',
    apply: 'build',
    generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      for (const name of Object.keys(bundle).sort()) {
        const file = bundle[name]!;
        hash.update(name).update(file.type === 'chunk' ? file.code : file.source);
      }
      this.emitFile({ type: 'asset', fileName: 'release.json', source: `${JSON.stringify({ release: hash.digest('hex').slice(0, 16) })}\n` });
    },
  };
}

export default defineConfig({
  // prerender before VitePWA: its closeBundle writes the pages the worker's precache lists (it runs first either way).
  plugins: [react(), tailwindcss(), prerender(), storefrontShell(), VitePWA(pwaOptions), releaseStamp()],
  resolve: {
    // What firebase/database still brought along (see above) is replaced by a stub of the names reactfire imports.
    // Zod without its eval probe (the CSP has no 'unsafe-eval'; src/lib/vendor/zod-jitless.ts).
    alias: [
      { find: 'firebase/database', replacement: fileURLToPath(new URL('./src/lib/vendor/no-realtime-database.ts', import.meta.url)) },
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/vendor/zod-jitless.ts', import.meta.url)) },
    ],
  },
  build: {
    target: 'es2022',
    manifest: true, // read by the bundle budget test
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !UNUSED_FIREBASE.test(id),
      },
    },
  },
});
