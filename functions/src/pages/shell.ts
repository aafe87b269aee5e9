import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The built web app's index.html, which book pages fill in. functions/build.mjs copies
// web/dist/index.html to functions/lib/web-index.html (scripts/lib/build.ts and `npm run build`
// build the web app first), so the deployed function carries the shell of the same deploy.
// In the emulator the bundle sits in functions/lib/, and ../../web/dist/index.html is the
// freshest build (a web rebuild without a functions rebuild still shows up).

const CANDIDATES = [
  join(__dirname, '..', '..', 'web', 'dist', 'index.html'), // the bundle, functions/lib/index.js
  join(__dirname, '..', '..', '..', 'web', 'dist', 'index.html'), // the sources (unit tests, tsx)
  join(__dirname, 'web-index.html'), // deployed: the copy made by functions/build.mjs
];

let cached: string | null = null;

export function webShell(): string {
  if (cached) return cached;
  const path = CANDIDATES.find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`The web app's index.html was not found (looked in ${CANDIDATES.join(', ')}): build the web app first`);
  cached = readFileSync(path, 'utf8');
  return cached;
}
