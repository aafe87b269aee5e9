import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { productionOrigin, robotsTxt } from '../contract/src/robots.ts';
import { VitePWA } from 'vite-plugin-pwa';
import { prerender } from './prerender.ts';
import { stacklessReactSentinels } from './stackless-react-sentinels.ts';
import { pwaOptions, storefrontShell } from './pwa.config.ts';

// reactfire imports firestore, database, storage, functions and remote-config at its top level.
// The storefront uses only its Firestore hooks, and only on the live pages (orders, a book's stock,
// loaded lazily); the auth chunk does not import reactfire at all (lib/auth/auth-bridge.tsx).
// The unused packages are declared free of side effects and dropped; Firestore is in the list too
// (reactfire's import of it alone keeps nothing), and the live pages' own use of it keeps it whole,
// its registration included. (firebase/database would still ride along: reactfire's top level keeps
// its functions in a frozen table; the alias below replaces it.)
const UNUSED_FIREBASE = /node_modules\/(?:@firebase\/(?:firestore|database|storage|functions|remote-config|performance|analytics|app-check|messaging|installations)|firebase\/(?:firestore|database|storage|functions|remote-config|performance|analytics|app-check|messaging|installations))/;

/**
 * release.json: `{ "release": <hash of every file the build emits> }`. Same sources, same id. The
 * function bundle carries a copy (functions/build.mjs) beside the asset manifest its pages name, so
 * the build the function renders for and the Hosting upload can be compared (decision 016).
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

/**
 * robots.txt with its Sitemap line (issue 26): the emulators' Hosting address in emulator builds;
 * in production the origin the `pages` function uses: PUBLIC_ORIGIN from functions/.env.<project>
 * (or the environment), else https://<project>.web.app, the project being the web config's.
 */
function robots(): Plugin {
  let origin = '';
  return {
    name: 'bookstore-robots',
    apply: 'build',
    configResolved(config) {
      if (config.mode === 'emulator') {
        origin = process.env.BOOKSTORE_SHOP_ORIGIN ?? 'http://127.0.0.1:5000';
        return;
      }
      const env = loadEnv(config.mode, config.envDir || config.root, 'VITE_');
      const projectId = process.env.VITE_FIREBASE_PROJECT_ID || env.VITE_FIREBASE_PROJECT_ID || 'your-project';
      const file = fileURLToPath(new URL(`../functions/.env.${projectId}`, import.meta.url));
      const configured = existsSync(file) ? /^PUBLIC_ORIGIN=(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1]?.trim().replace(/^["']|["']$/g, '') : undefined;
      origin = productionOrigin(projectId, configured || process.env.PUBLIC_ORIGIN);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'robots.txt', source: robotsTxt(origin) });
    },
  };
}

// Zod in a chunk of its own, with the alias below that configures it: left to itself the bundler put
// both in one chunk with the catalogue's terms, which /books and the dashboard share, so /books
// loaded and ran 52 KB it never uses (issue 60).
// Everything the entry imports statically ('$initial') in the entry's own chunk: left to itself the
// bundler cut it into eight files (React, the JSX runtime, the API client, ...) that every page loads
// anyway. Each file costs a request and its headers (about 420 bytes), and the emulator's HTTP/1.1
// has six connections: home's first load went from 17 files to 10 and 121.8 KB to 119.6 KB, and the
// first visit with the worker's precache from 249 KB to 241 KB of its 250 (first-visit.spec.ts).
const CHUNK_GROUPS = {
  groups: [
    { name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]lib[\\/]vendor[\\/]zod-jitless/, priority: 2 },
    { name: 'app', tags: ['$initial' as const], priority: 1 },
  ],
};

export default defineConfig({
  // prerender before VitePWA: its closeBundle writes the pages the worker's precache lists (it runs first either way).
  plugins: [react(), stacklessReactSentinels(), tailwindcss(), prerender(), storefrontShell(), VitePWA(pwaOptions), robots(), releaseStamp()],
  resolve: {
    // What firebase/database still brought along (see above) is replaced by a stub of the names reactfire imports.
    // Zod without its eval probe (the CSP has no 'unsafe-eval'; src/lib/vendor/zod-jitless.ts).
    // Firestore's RE2 for Pipeline queries the shop never makes (src/lib/vendor/no-re2js.ts).
    alias: [
      { find: /^re2js$/, replacement: fileURLToPath(new URL('./src/lib/vendor/no-re2js.ts', import.meta.url)) },
      { find: 'firebase/database', replacement: fileURLToPath(new URL('./src/lib/vendor/no-realtime-database.ts', import.meta.url)) },
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/vendor/zod-jitless.ts', import.meta.url)) },
    ],
  },
  build: {
    target: 'es2022',
    manifest: true, // read by the bundle budget test
    // No modulepreload polyfill: a browser without it (Safari before 17) fetches the same files as it finds them.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !UNUSED_FIREBASE.test(id),
      },
      output: { codeSplitting: CHUNK_GROUPS },
    },
  },
});
