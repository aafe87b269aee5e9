import { existsSync, readFileSync, statSync } from 'node:fs';
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

let cached: { path: string; mtimeMs: number; manifest: Manifest } | null = null;

/**
 * The manifest, read again when its file changes: locally a web build (the smoke test's production
 * build, a developer's rebuild) replaces web/dist under a running emulator, and the home page, now
 * this function's (issue 38), must name the scripts that build has. Deployed, the copy never changes.
 */
export function webManifest(): Manifest {
  const path = candidates.find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`The web build's manifest was not found (looked in ${candidates.join(', ')}): build the web app first`);
  const { mtimeMs } = statSync(path);
  if (cached?.path !== path || cached.mtimeMs !== mtimeMs) cached = { path, mtimeMs, manifest: JSON.parse(readFileSync(path, 'utf8')) as Manifest };
  return cached.manifest;
}
