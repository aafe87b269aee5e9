import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { logger } from 'firebase-functions/logger';

// The web build the `pages` function's asset manifest comes from (the script and stylesheet names its
// pages ask for, web-build.ts; decision 020): web/vite.config.ts stamps release.json (a hash of every
// file the build emits) and functions/build.mjs copies it beside the manifest as web-release.json.
// Hosting serves the same file at /release.json, so `curl -sI .../books` (its X-Release) against
// `curl .../release.json` tells whether the function's pages match the site (decision 016).
// Looked up in the order web-build.ts finds the manifest, so it names the build the manifest came from.

function candidates(): string[] {
  return [
    join(__dirname, '..', '..', 'web', 'dist', 'release.json'), // the bundle in functions/lib, next to a web build (emulator)
    join(__dirname, '..', '..', '..', 'web', 'dist', 'release.json'), // the sources (unit tests, tsx)
    join(__dirname, 'web-release.json'), // deployed: the copy made by functions/build.mjs
  ];
}

let release: string | undefined;

/** The web build's release id, or 'unknown' for a bundle built without one (an old web build). */
export function webRelease(): string {
  if (release !== undefined) return release;
  const path = candidates().find((candidate) => existsSync(candidate));
  try {
    release = path ? String((JSON.parse(readFileSync(path, 'utf8')) as { release?: unknown }).release ?? 'unknown') : 'unknown';
  } catch {
    release = 'unknown';
  }
  logger.info('pages: web build named', { release, from: path ?? null });
  return release;
}

/** Says on every answer which web build the pages are rendered for (X-Release). */
export function withRelease<Req extends IncomingMessage, Res extends ServerResponse>(handler: (req: Req, res: Res) => void) {
  return (req: Req, res: Res) => {
    res.setHeader('X-Release', webRelease());
    handler(req, res);
  };
}
