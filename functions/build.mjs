// Bundles the function with the contract package inlined, so `firebase deploy` can upload
// functions/ alone; npm dependencies stay external and are installed by Cloud Build, exactly as
// locked: the function's package-lock.json is cut from the root one (lockfile.mjs, decision 016).
import { build } from 'esbuild';
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pruneLockfile } from './lockfile.mjs';
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
// release.json (web/vite.config.ts) names the web build the manifest comes from: the function says it
// (X-Release, functions/src/pages/release.ts) and the rehearsal checks it equals the Hosting upload's.
for (const [file, copy] of [['.vite/manifest.json', 'web-manifest.json'], ['release.json', 'web-release.json']]) {
  const from = new URL(file, webDist).pathname;
  if (existsSync(from)) copyFileSync(from, new URL(`./lib/${copy}`, import.meta.url).pathname);
  else console.warn(`functions/build.mjs: ${from} not found; build the web app first, or book pages will fail`);
}

// The same build's /assets/ files: `pages` serves them while Hosting does not have them yet (a
// release deploys the functions first; functions/src/pages/web-assets.ts, decision 033).
const assets = new URL('assets/', webDist).pathname;
const assetsCopy = new URL('./lib/web-assets/', import.meta.url).pathname;
rmSync(assetsCopy, { recursive: true, force: true });
if (existsSync(assets)) cpSync(assets, assetsCopy, { recursive: true });
else console.warn(`functions/build.mjs: ${assets} not found; build the web app first, or pages will name files nothing serves`);

// `npm ci` in Cloud Build installs this tree and nothing else; every dependency must be pinned exactly.
const rootLock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
writeFileSync(new URL('./package-lock.json', import.meta.url), `${JSON.stringify(pruneLockfile(rootLock, 'functions'), null, 2)}\n`);
