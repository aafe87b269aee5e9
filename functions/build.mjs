// Bundles the function with the contract package inlined, so `firebase deploy` can upload
// functions/ alone; npm dependencies stay external and are installed by Cloud Build.
import { build } from 'esbuild';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { webRenderOptions, webRenderPlugins } from './web-render.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The pages function renders the web app's route components (web/src/server/); `--web-dist
// web/dist-prod` (npm run deploy) takes the web build's manifest from the production build.
const at = process.argv.indexOf('--web-dist');
const webDist = new URL(`../${at > 0 ? process.argv[at + 1].replace(/\/?$/, '/') : 'web/dist/'}`, import.meta.url);

await build({
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: new URL('./lib/index.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: Object.keys(pkg.dependencies),
  logLevel: 'warning',
  ...webRenderOptions,
  plugins: webRenderPlugins(webDist),
});

// The pages' <script>/<link> tags come from the web build's asset manifest (functions/src/pages/
// web-build.ts): ship a copy with the function, since `firebase deploy` uploads functions/ alone.
const manifest = new URL('.vite/manifest.json', webDist).pathname;
if (existsSync(manifest)) copyFileSync(manifest, new URL('./lib/web-manifest.json', import.meta.url).pathname);
else console.warn(`functions/build.mjs: ${manifest} not found; build the web app first, or book pages will fail`);
