// Bundles the function with the contract package inlined, so `firebase deploy` can upload
// functions/ alone; npm dependencies stay external and are installed by Cloud Build.
import { build } from 'esbuild';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

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
});

// Book pages fill in the web app's built index.html (functions/src/pages/shell.ts): ship a copy
// with the function, since `firebase deploy` uploads functions/ alone. Build the web app first.
const shell = new URL('../web/dist/index.html', import.meta.url).pathname;
if (existsSync(shell)) copyFileSync(shell, new URL('./lib/web-index.html', import.meta.url).pathname);
else console.warn('functions/build.mjs: web/dist/index.html not found; build the web app first, or book pages will fail');
