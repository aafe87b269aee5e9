// The server side of the web app, for the build's prerender (web/prerender.ts, through Vite) and the
// pages function (functions/src/pages, bundled by esbuild).
export { renderPage, type Loaders, type RenderedPage } from './render';
export { escapeHtml, htmlDocument, scriptJson, type Manifest } from './document';
export { canonicalPath } from './canonical';
