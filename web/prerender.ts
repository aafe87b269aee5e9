import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';

// After the client build: the storefront's static pages, server-rendered by the same module the pages
// function uses (src/server/, built for Node into node_modules/.prerender so its imports resolve):
//   cart.html, about.html, login.html   the page as first rendered, which the app hydrates
//   shell.html  the plain document with an empty root: Hosting's fallback for every other route,
//               and the service worker's answer to navigations
// No data is loaded at build time: the cart renders its neutral form (useHydrated). The home page is
// not among them: it carries the catalogue's newest books, so the pages function serves it (issue 38),
// and Vite's own index.html is removed (Hosting would answer / with it before any rewrite).

const PAGES = [
  { url: '/cart', file: 'cart.html' },
  { url: '/about', file: 'about.html' },
  { url: '/login', file: 'login.html' },
];

type ServerModule = typeof import('./src/server/index');

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
          build: { ssr: 'src/server/index.ts', outDir: serverDir, emptyOutDir: true, manifest: false, ssrManifest: false },
        });
        // No cache-busting query: the route chunks import the entry back by its plain URL, and a second
        // copy of it would have module state of its own (the page title, usePageTitle).
        const server = (await import(pathToFileURL(join(serverDir, 'index.js')).href)) as ServerModule;
        const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Parameters<ServerModule['htmlDocument']>[0];
        writeFileSync(join(outDir, 'shell.html'), server.htmlDocument(manifest, { title: 'Bookstore: books delivered, cash on delivery', root: '' }));
        for (const page of PAGES) {
          const rendered = await server.renderPage(page.url);
          const html = server.htmlDocument(manifest, {
            title: rendered.title,
            head: rendered.hints,
            routeModule: rendered.routeModule,
            root: rendered.html,
          });
          writeFileSync(join(outDir, page.file), html);
        }
        rmSync(join(outDir, 'index.html'), { force: true });
        rmSync(serverDir, { recursive: true, force: true });
      },
    },
  };
}
