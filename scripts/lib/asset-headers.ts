import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

// Hosting applies its header rules by the request's path, whatever answers it: a file, or a
// function behind a rewrite (decision 033; the Hosting emulator does the same). firebase.json's
// `/assets/**` rule would make year-long `immutable` reach a 404 for a name the release does not
// have, so the browser (and the CDN, until the next release) would keep that 404: a rollback that
// brings the name back, or a release whose `pages` goes live before its Hosting files, would break
// for whoever asked early. So the config actually used (firebase.deploy.json, firebase.emulator.json)
// narrows the rule to the files the build ships, a regex of their exact names; any other /assets/
// path reaches the `pages` function, which serves its own build's copy or a 404 that is `no-store`.

export const ASSETS_GLOB = '/assets/**';

interface HeaderRule {
  source?: string;
  regex?: string;
  headers: { key: string; value: string }[];
}

/** Every file under `<webDist>/assets`, as its URL path below /assets/ ('index-abc.js', 'fonts/x.woff2'). */
export function assetNames(webDist: string): string[] {
  const root = join(webDist, 'assets');
  if (!existsSync(root)) return [];
  const names: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else names.push(relative(root, join(dir, entry.name)).split('\\').join('/'));
    }
  };
  walk(root);
  return names.sort();
}

/** An RE2-safe regex (no lookaround) matching exactly /assets/<name> for these names. */
export function exactAssetsRegex(names: string[]): string {
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, (c) => (c === '/' ? '/' : `\\${c}`)));
  return `^/assets/(?:${escaped.join('|')})$`;
}

/**
 * A Hosting config whose `/assets/**` header rules apply only to the build's own files. Without a
 * build (no names) the rule is left as it is: nothing under /assets/ exists to serve anyway.
 */
export function narrowAssetRules<T extends { headers?: HeaderRule[] }>(hosting: T, names: string[]): T {
  if (names.length === 0 || !hosting.headers) return hosting;
  const regex = exactAssetsRegex(names);
  return {
    ...hosting,
    headers: hosting.headers.map((rule) => {
      if (rule.source !== ASSETS_GLOB) return rule;
      const { source: _source, ...rest } = rule;
      return { regex, ...rest };
    }),
  };
}
