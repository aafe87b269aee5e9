import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../../../web/src/server';

// The web build's asset manifest (Vite build.manifest): which script, stylesheet and chunks a page
// served by this function asks for (web/src/server/document.ts writes the tags).
// functions/build.mjs copies it to functions/lib/web-manifest.json, since `firebase deploy` uploads
// functions/ alone. In the emulator the bundle sits in functions/lib/ and ../../web/dist/ holds the
// freshest build (a web rebuild without a functions rebuild still shows up).
const MANIFEST = join('.vite', 'manifest.json');
const candidates = [
  join(__dirname, '..', '..', 'web', 'dist', MANIFEST), // the bundle, functions/lib/index.js
  join(__dirname, '..', '..', '..', 'web', 'dist', MANIFEST), // the sources (unit tests, tsx)
  join(__dirname, 'web-manifest.json'), // deployed: the copy made by functions/build.mjs
];

let cached: Manifest | null = null;

export function webManifest(): Manifest {
  if (cached) return cached;
  const path = candidates.find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`The web build's manifest was not found (looked in ${candidates.join(', ')}): build the web app first`);
  cached = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  return cached;
}
