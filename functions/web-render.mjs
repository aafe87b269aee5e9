// esbuild options for bundling the web app's server render (web/src/server/) into the pages
// function: the storefront's TSX route components, compiled as Vite compiles them for the browser.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const webRoot = new URL('../web/', import.meta.url).pathname;

/**
 * Modules that must never run on the server: the Firebase SDK and reactfire (loaded lazily by the
 * app, docs/decisions/010-lazy-auth.md), the service worker's registration (a Vite virtual module).
 * They become stubs that throw if ever evaluated; the server render never reaches them.
 */
const BROWSER_ONLY = /^(?:firebase(?:\/.*)?|@firebase\/.*|reactfire|workbox-window|virtual:pwa-register.*)$/;

/** @param {string} webDist the web build's output (its asset manifest names the banner's file). */
export function webRenderPlugins(webDist) {
  const manifestPath = new URL('.vite/manifest.json', webDist).pathname;
  const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
  return [
    {
      name: 'browser-only',
      setup(build) {
        build.onResolve({ filter: BROWSER_ONLY }, (args) => ({ path: args.path, namespace: 'browser-only' }));
        build.onLoad({ filter: /.*/, namespace: 'browser-only' }, (args) => ({
          // CommonJS, so esbuild does not check the names imported from it.
          contents: `throw new Error(${JSON.stringify(`${args.path} is browser-only and was loaded on the server`)});\nmodule.exports = {};`,
          loader: 'js',
        }));
      },
    },
    {
      // An image the app imports is the web build's hashed file, as the browser's bundle names it.
      name: 'web-assets',
      setup(build) {
        build.onLoad({ filter: /\.(svg|png|jpe?g|webp)$/ }, (args) => {
          const key = relative(webRoot, args.path);
          const file = manifest[key]?.file;
          if (!file) return { contents: readFileSync(args.path), loader: 'dataurl' };
          return { contents: `export default ${JSON.stringify(`/${file}`)};`, loader: 'js' };
        });
      },
    },
  ];
}

export const webRenderOptions = {
  jsx: 'automatic',
  loader: { '.css': 'empty' },
  define: {
    'import.meta.env': JSON.stringify({ MODE: 'production', PROD: true, DEV: false, SSR: true, BASE_URL: '/' }),
  },
};
