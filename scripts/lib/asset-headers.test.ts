import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RE2JS } from 're2js';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSETS_GLOB, assetNames, exactAssetsRegex, narrowAssetRules } from './asset-headers';
import { deployConfig } from './deploy';
import { emulatorConfig } from './emulator-config';

// Production Hosting matches header `regex`es with RE2; locally superstatic matches them with
// JavaScript's RegExp (the native re2 bindings are not installed, decision 035). re2js, RE2's
// JavaScript port, stands in for production here: every regex we ship must compile under RE2 and
// mean the same on both engines.

const firebaseJson = readFileSync(new URL('../../firebase.json', import.meta.url), 'utf8');
const NAMES = ['index-BxK2a9_Q.js', 'index-C4f0-e1z.css', 'book-page-D9s.qa1x.js', 'fonts/inter-latin-400.woff2'];
const PATHS = [
  '/', '/index.html', '/books', '/books/abc', '/cart', '/api/books', '/sw.js', '/__/auth/iframe', '/__/auth/handler', '/_x', '/assets/index-BxK2a9_Q.js',
  '/assets/index-BxK2a9_Q.jsx', '/assets/index-BxK2a9_QXjs', '/assets/fonts/inter-latin-400.woff2', '/assets/fonts/inter-latin-400.woff', '/assets/index-0ld.js',
  '/assets/book-page-D9s.qa1x.js', '/assets/book-page-D9sXqa1x.js', '/assets/', '/prefix/assets/index-BxK2a9_Q.js',
];
const sameOnBothEngines = (regex: string) => PATHS.filter((p) => new RegExp(regex, 'u').test(p) !== RE2JS.compile(regex).matcher(p).find());

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('the immutable /assets/ rule, narrowed to the files a build ships', () => {
  it('matches exactly the build\'s names, dots and dashes literal, nothing else under /assets/', () => {
    const regex = exactAssetsRegex(NAMES);
    const re = new RegExp(regex, 'u');
    for (const name of NAMES) expect(re.test(`/assets/${name}`), name).toBe(true);
    for (const other of ['/assets/index-BxK2a9_QXjs', '/assets/index-BxK2a9_Q.jsx', '/assets/book-page-D9sXqa1x.js', '/assets/index-0ld.js', '/assets/', '/prefix/assets/index-BxK2a9_Q.js']) {
      expect(re.test(other), other).toBe(false);
    }
  });

  it('is RE2 (production) and means the same there as in the local Hosting emulator', () => {
    const regex = exactAssetsRegex(NAMES);
    expect(() => RE2JS.compile(regex)).not.toThrow();
    expect(sameOnBothEngines(regex)).toEqual([]);
  });

  it('lists a build folder\'s assets, nested ones by their URL path', () => {
    dir = mkdtempSync(join(tmpdir(), 'assets-'));
    mkdirSync(join(dir, 'assets', 'fonts'), { recursive: true });
    for (const name of NAMES) writeFileSync(join(dir, 'assets', name), name);
    expect(assetNames(dir)).toEqual([...NAMES].sort());
    expect(assetNames(join(dir, 'nowhere'))).toEqual([]);
  });

  it('replaces only firebase.json\'s /assets/** rule, keeping its header; without a build it stays as it is', () => {
    const hosting = JSON.parse(firebaseJson).hosting as { headers: { source?: string; regex?: string; headers: { key: string; value: string }[] }[] };
    const original = hosting.headers.find((r) => r.source === ASSETS_GLOB)!;
    const narrowed = narrowAssetRules(hosting, NAMES);
    expect(narrowed.headers.find((r) => r.source === ASSETS_GLOB)).toBeUndefined();
    const rule = narrowed.headers.find((r) => r.regex === exactAssetsRegex(NAMES))!;
    expect(rule.headers).toEqual(original.headers);
    expect(narrowed.headers.filter((r) => r !== rule)).toEqual(hosting.headers.filter((r) => r !== original));
    expect(narrowAssetRules(hosting, [])).toBe(hosting);
  });

  it('reaches both configs actually used: firebase.deploy.json and firebase.emulator.json', () => {
    for (const config of [deployConfig(firebaseJson, NAMES), emulatorConfig(firebaseJson, NAMES)]) {
      const rules = (JSON.parse(config) as { hosting: { headers: { source?: string; regex?: string }[] } }).hosting.headers;
      expect(rules.some((r) => r.source === ASSETS_GLOB)).toBe(false);
      expect(rules.some((r) => r.regex === exactAssetsRegex(NAMES))).toBe(true);
    }
  });
});

describe("firebase.json's own header regexes", () => {
  it('compile under RE2 and match the same paths as RegExp, so the emulator without re2 tests what production does', () => {
    const regexes = (JSON.parse(firebaseJson).hosting.headers as { regex?: string }[]).flatMap((r) => (r.regex ? [r.regex] : []));
    expect(regexes.length).toBeGreaterThan(0);
    for (const regex of regexes) {
      expect(() => RE2JS.compile(regex), regex).not.toThrow();
      expect(sameOnBothEngines(regex), regex).toEqual([]);
    }
  });
});
