// The HTML document around a server render: head, the web build's assets, the root, the query state.
// The one place that reads the web build's asset manifest (Vite `build.manifest`, dist/.vite/
// manifest.json), for the build's prerender and the pages function alike.
import { START_SCRIPT } from './start-script';

export interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface DocumentParts {
  /** `<title>` text (escaped here). */
  title: string;
  /** The shop's meta description, or the page's own among `head`. */
  description?: string;
  /** Extra head tags, already escaped (meta tags, canonical, JSON-LD, the cover's preload). */
  head?: string[];
  /** The route's module name (src/app/routes/<name>.tsx), preloaded with the entry. */
  routeModule?: string | null;
  /** The HTML inside #root (empty for the plain shell). */
  root: string;
  /** TanStack Query's dehydrated state (omitted when there is none). */
  state?: unknown;
}

/** The id of the script element carrying the dehydrated query state (app/start.tsx reads it). */
export const QUERY_STATE_ID = 'query-state';

export const SHOP_DESCRIPTION =
  'An independent online book shop: business, technology, fiction, horror and adventure books, delivered to your door. Pay cash on delivery.';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text or attribute value, HTML-escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/**
 * JSON safe inside a <script> element: no '<' (so no '</script>' or '<!--'), no '>' or '&', and no
 * U+2028/U+2029; JSON.parse reads the \\u escapes back to the same characters.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The stylesheets, and the start script naming the entry and the modules to preload with it (its
 * imports and the route's chunk): it adds them after the load event (decision 029), so the scripts
 * neither delay the page's first paint nor compete with its pictures.
 */
export function assetTags(manifest: Manifest, routeModule?: string | null): string[] {
  const entry = manifest['index.html'];
  if (!entry) throw new Error('The web build\'s manifest has no index.html entry: build the web app first');
  const preload = new Set<string>();
  const css = new Set<string>(entry.css ?? []);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || preload.has(chunk.file)) return;
    preload.add(chunk.file);
    chunk.css?.forEach((file) => css.add(file));
    chunk.imports?.forEach(visit);
  };
  entry.imports?.forEach(visit);
  if (routeModule) visit(`src/app/routes/${routeModule}.tsx`);
  preload.delete(entry.file);
  const imports = [...preload].map((file) => `/${file}`).join(' ');
  return [
    ...[...css].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    `<script data-entry="/${entry.file}" data-preload="${imports}">${START_SCRIPT}</script>`,
  ];
}

export function htmlDocument(manifest: Manifest, parts: DocumentParts): string {
  const description = parts.description ?? SHOP_DESCRIPTION;
  const head = [
    '<meta charset="UTF-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>${escapeHtml(parts.title)}</title>`,
    ...(parts.head?.some((tag) => tag.startsWith('<meta name="description"')) ? [] : [`<meta name="description" content="${escapeHtml(description)}">`]),
    '<meta name="theme-color" content="#0d0842">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="apple-touch-icon" href="/icons/apple-touch-icon-180.png">',
    '<link rel="manifest" href="/manifest.webmanifest">',
    ...(parts.head ?? []),
    ...assetTags(manifest, parts.routeModule),
  ];
  const state = parts.state === undefined ? '' : `<script type="application/json" id="${QUERY_STATE_ID}">${scriptJson(parts.state)}</script>`;
  return `<!doctype html>\n<html lang="en">\n<head>\n${head.map((tag) => `  ${tag}\n`).join('')}</head>\n<body>\n<div id="root">${parts.root}</div>\n${state}\n</body>\n</html>\n`;
}
