// esbuild options for bundling the web app's server render (web/src/server/) into the pages
// function: the storefront's TSX route components, compiled as Vite compiles them for the browser.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const webRoot = new URL('../web/', import.meta.url).pathname;

/**
 * Modules that must never run on the server: the Firebase SDK and reactfire (loaded lazily by the
 * app, docs/decisions/010-lazy-auth.md), the service worker's registration (a Vite virtual module),
 * the counter's camera barcode reader (barcode-detector and its zxing-wasm .wasm, issue 57).
 * They become stubs that throw if ever evaluated; the server render never reaches them.
 */
const BROWSER_ONLY = /^(?:firebase(?:\/.*)?|@firebase\/.*|reactfire|workbox-window|virtual:pwa-register.*|barcode-detector(?:\/.*)?|zxing-wasm(?:\/.*)?)$/;

/**
 * A small image the web build inlined (not in its manifest): the data URL exactly as Vite writes it
 * (its svgToDataURL: an SVG as escaped text, never a raw '<' in an attribute; anything else base64),
 * so the server's `src` is the browser's, character for character, and valid HTML.
 * @param {string} path
 */
function inlined(path) {
  const content = readFileSync(path);
  if (!path.endsWith('.svg')) return `data:image/${path.endsWith('.png') ? 'png' : path.endsWith('.webp') ? 'webp' : 'jpeg'};base64,${content.toString('base64')}`;
  const text = content.toString();
  if (text.includes('<text') || text.includes('<foreignObject') || /"[^"']*'[^"]*"|'[^'"]*"[^']*'/.test(text)) return `data:image/svg+xml;base64,${content.toString('base64')}`;
  return `data:image/svg+xml,${text.trim().replaceAll(/>\s+</g, '><').replaceAll('"', "'").replaceAll('%', '%25').replaceAll('#', '%23').replaceAll('<', '%3c').replaceAll('>', '%3e').replaceAll(/\s+/g, '%20')}`;
}

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
          if (!file) return { contents: `export default ${JSON.stringify(inlined(args.path))};`, loader: 'js' };
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
