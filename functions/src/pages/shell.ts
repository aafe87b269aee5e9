import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The built web app's pages that the `pages` function fills in (web/prerender.ts writes them):
//   shell.html  the plain SPA shell (the not-found page's)
//   _book.html  the storefront's header and footer around a slot for a book's article
//   _books.html /books with its skeleton grid marked as the slot for the first page of books
// functions/build.mjs copies them to functions/lib/web-*.html (scripts/lib/build.ts and `npm run
// build` build the web app first), so the deployed function carries the pages of the same deploy.
// In the emulator the bundle sits in functions/lib/, and ../../web/dist/ holds the freshest build
// (a web rebuild without a functions rebuild still shows up).

function candidates(file: string): string[] {
  return [
    join(__dirname, '..', '..', 'web', 'dist', file), // the bundle, functions/lib/index.js
    join(__dirname, '..', '..', '..', 'web', 'dist', file), // the sources (unit tests, tsx)
    join(__dirname, `web-${file.replace(/^_/, '')}`), // deployed: the copy made by functions/build.mjs
  ];
}

const cache = new Map<string, string>();

function read(file: string): string | null {
  const hit = cache.get(file);
  if (hit) return hit;
  const path = candidates(file).find((candidate) => existsSync(candidate));
  if (!path) return null;
  const text = readFileSync(path, 'utf8');
  cache.set(file, text);
  return text;
}

/** The plain SPA shell. */
export function webShell(): string {
  const shell = read('shell.html');
  if (!shell) throw new Error(`The web app's shell.html was not found (looked in ${candidates('shell.html').join(', ')}): build the web app first`);
  return shell;
}

/** The book page's frame (header, footer, a slot); the plain shell from a build without one. */
export function bookFrame(): string {
  return read('_book.html') ?? webShell();
}

/** /books's frame (web/prerender.ts); the plain shell from a build without one (the app fetches). */
export function booksFrame(): string {
  return read('_books.html') ?? webShell();
}
