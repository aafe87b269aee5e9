import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';

// After the client build: render the storefront's static pages with react-dom/server (src/prerender.tsx,
// built for Node into node_modules/.prerender so its imports resolve) and write them into the output:
//   index.html  the home page as first rendered (banner, skeletons, header, footer): hydrated
//   cart.html   /cart: hydrated
//   shell.html  the plain SPA shell: Hosting's fallback for every other route, and the service worker's
//   _book.html  header and footer around a slot the pages function fills with a book (then replaced)
//   _books.html /books with its skeleton grid marked as a slot the pages function fills with the
//               first page of books (then replaced)
// so the first HTML paints what the shopper sees first, before any JavaScript has run; the app's
// modules are asked for after that first paint (public/boot.js).

const ROOT_TAG = '<div id="root"></div>';
const PAGES = [
  { url: '/', file: 'index.html', title: null, route: 'home' },
  { url: '/cart', file: 'cart.html', title: 'Shopping cart', route: 'cart' },
];

interface ManifestChunk { file: string; imports?: string[] }

/**
 * modulepreload links for a route's chunk and its static imports: the router would only ask for
 * them once the entry has run (a second round trip before the page is the app's).
 */
function routePreloads(manifest: Record<string, ManifestChunk>, route: string, html: string): string[] {
  const key = Object.keys(manifest).find((k) => k.endsWith(`src/app/routes/${route}.tsx`));
  const files = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    (chunk.imports ?? []).forEach(visit);
  };
  if (key) visit(key);
  return [...files].filter((file) => !html.includes(`/${file}"`)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
}

/**
 * The page paints from its HTML and CSS; its scripts only take it over. public/boot.js asks for them
 * once the first screen has painted, so they do not share the connection with the stylesheet and the
 * first screen's images (in Chromium a module script and a modulepreload are fetched at High priority).
 */
function scriptsAfterFirstPaint(html: string): string {
  let entry = '';
  const preload: string[] = [];
  const rest = html
    .replace(/[ \t]*<script type="module" crossorigin src="([^"]+)"><\/script>\n?/, (_tag, src: string) => {
      entry = src;
      return '';
    })
    .replace(/[ \t]*<link rel="modulepreload" crossorigin href="([^"]+)">\n?/g, (_tag, href: string) => {
      preload.push(href);
      return '';
    });
  if (!entry) throw new Error('prerender: the entry <script type="module"> was not found in the built index.html');
  return rest.replace('</head>', `  <script defer src="/boot.js" data-entry="${entry}" data-preload="${preload.join(' ')}"></script>\n  </head>`);
}

interface PrerenderModule {
  render(url: string): Promise<string>;
  renderBookFrame(): Promise<string>;
  renderBooksFrame(): Promise<string>;
}

export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'bookstore-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    // First, and finished before any other plugin's closeBundle (a service worker's precache list
    // must see the pages written here).
    closeBundle: {
      order: 'pre',
      sequential: true,
      async handler() {
        if (config.build.ssr) return; // the server build below runs this config too
        const outDir = resolve(config.root, config.build.outDir);
        const serverDir = join(config.root, 'node_modules', '.prerender');
        await build({
          root: config.root,
          mode: config.mode,
          configFile: config.configFile,
          logLevel: 'warn',
          build: { ssr: 'src/prerender.tsx', outDir: serverDir, emptyOutDir: true, manifest: false, ssrManifest: false },
        });
        const mod = (await import(`${pathToFileURL(join(serverDir, 'prerender.js')).href}?t=${Date.now()}`)) as PrerenderModule;
        const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
        if (!shell.includes(ROOT_TAG)) throw new Error(`prerender: ${ROOT_TAG} not found in the built index.html`);
        writeFileSync(join(outDir, 'shell.html'), shell);
        // React puts the page's resource hints (the LCP image's preload) first in its output: they go to
        // the head, where they are found first and stay out of the tree that hydrates.
        const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
        const fill = (root: string, title: string | null, route: string) => {
          const hints: string[] = routePreloads(manifest, route, shell);
          const body = root.replace(/<link rel="preload"[^>]*\/>/g, (tag) => {
            hints.push(tag);
            return '';
          });
          const html = shell.replace('</head>', `${hints.map((tag) => `  ${tag}\n`).join('')}  </head>`).replace(ROOT_TAG, body);
          return scriptsAfterFirstPaint(title ? html.replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`) : html);
        };
        for (const page of PAGES) {
          const body = await mod.render(page.url);
          writeFileSync(join(outDir, page.file), fill(`<div id="root" data-prerendered="${page.url}">${body}</div>`, page.title, page.route));
        }
        writeFileSync(join(outDir, '_book.html'), fill(`<div id="root">${await mod.renderBookFrame()}</div>`, null, 'book-detail'));
        writeFileSync(join(outDir, '_books.html'), fill(`<div id="root">${await mod.renderBooksFrame()}</div>`, 'Browse books', 'books'));
        rmSync(serverDir, { recursive: true, force: true });
      },
    },
  };
}
